package httpdrv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"strings"
	"syscall"
)

// k6's error codes (the error_code tag of its HTTP samples), as k6's
// lib/netext/httpext documents them.
const (
	CodeDefault         = 1000
	CodeRequestTimeout  = 1050
	CodeDNS             = 1100
	CodeDNSNoSuchHost   = 1101
	CodeTCP             = 1200
	CodeTCPBrokenPipe   = 1201
	CodeTCPDial         = 1210
	CodeTCPDialTimeout  = 1211
	CodeTCPDialRefused  = 1212
	CodeTCPResetByPeer  = 1220
	CodeTLS             = 1300
	CodeX509Unknown     = 1310
	CodeX509Hostname    = 1311
	statusCodeBase      = 1000
	firstErrorStatus    = 400
	codeNoErrorAtStatus = 0
)

// ErrorCode is k6's error_code of a request that got status (0: no
// response) and err: 1000+status for a status of 400 or more, else the
// code of err's network failure, 0 when there was no error.
func ErrorCode(status int, err error) int {
	if status >= firstErrorStatus {
		return statusCodeBase + status
	}
	if err == nil {
		return codeNoErrorAtStatus
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return CodeDNSNoSuchHost
		}
		return CodeDNS
	case errors.As(err, &unknownCA):
		return CodeX509Unknown
	case errors.As(err, &hostErr):
		return CodeX509Hostname
	case errors.As(err, &recErr):
		return CodeTLS
	case (errors.As(err, &opErr) && opErr.Op == "dial") || strings.HasPrefix(err.Error(), "connect "):
		// "connect HOST: ..." is the plain client's dial failure
		var ne net.Error
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return CodeTCPDialRefused
		case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
			errors.As(err, &ne) && ne.Timeout():
			return CodeTCPDialTimeout
		}
		return CodeTCPDial
	case errors.Is(err, syscall.ECONNREFUSED):
		return CodeTCPDialRefused
	case errors.Is(err, syscall.ECONNRESET):
		return CodeTCPResetByPeer
	case errors.Is(err, syscall.EPIPE):
		return CodeTCPBrokenPipe
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return CodeRequestTimeout
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return CodeRequestTimeout
	}
	if errors.As(err, &opErr) {
		return CodeTCP
	}
	return CodeDefault
}

package k8s

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// MaxIndexedParallelism is Kubernetes' limit on .spec.parallelism of an
// Indexed Job (batch/v1 JobSpec: "must be less than or equal to 10^5").
const MaxIndexedParallelism = 100_000

// The grammar of a container image reference, as kubelet parses it (the
// distribution "reference" grammar, normalized as docker does):
// [HOST[:PORT]/]PATH[:TAG][@ALGO:HEX]. The first component is a host only
// when it holds a "." or ":" or is localhost; the path is lower-case
// components separated by /, each alphanumerics joined by ".", "_", "__"
// or runs of "-".
var (
	imageHost = regexp.MustCompile(`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?$`)
	imageRest = regexp.MustCompile(`^` +
		`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*` + // path
		`(?::[\w][\w.-]{0,127})?` + // tag
		`(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?` + // digest
		`$`)
)

// validImage reports whether image parses as a reference.
func validImage(image string) bool {
	rest := image
	if host, path, ok := strings.Cut(image, "/"); ok && (strings.ContainsAny(host, ".:[") || host == "localhost") {
		if !imageHost.MatchString(host) {
			return false
		}
		rest = path
	}
	return imageRest.MatchString(rest)
}

// checkImage reports an image reference kubelet would refuse
// (InvalidImageName) — at apply time in N pods instead of here.
func checkImage(image string) error {
	if image != strings.TrimSpace(image) || !validImage(image) {
		return fmt.Errorf("--image %q is not an image reference ([HOST[:PORT]/]NAME[:TAG][@DIGEST], lower-case name, no spaces)", image)
	}
	if len(image) > 255+128+80 {
		return fmt.Errorf("--image: %d characters is too long for an image reference", len(image))
	}
	return nil
}

// checkDNS reports a name that is not a DNS-1123 label (namespaces) or
// subdomain (Secrets, PersistentVolumeClaims), with Kubernetes' own
// message.
func checkDNS(flag, v string, label bool) error {
	var msgs []string
	if label {
		msgs = validation.IsDNS1123Label(v)
	} else {
		msgs = validation.IsDNS1123Subdomain(v)
	}
	if len(msgs) > 0 {
		return fmt.Errorf("--%s %q: %s", flag, v, strings.Join(msgs, "; "))
	}
	return nil
}

// checkQuantity reports a resource quantity Kubernetes refuses: not a
// quantity, or negative ("must be greater than or equal to 0").
func checkQuantity(flag, v string) error {
	q, err := resource.ParseQuantity(v)
	if err != nil {
		return fmt.Errorf("--%s %q: %v", flag, v, err)
	}
	if q.Sign() < 0 {
		return fmt.Errorf("--%s %q: must be greater than or equal to 0", flag, v)
	}
	return nil
}

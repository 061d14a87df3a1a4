// Package natscluster runs a real N-node nats-server cluster with
// JetStream on loopback, one child process per node: routes between the
// nodes, RAFT-replicated file storage under a data directory, and a
// monitoring port per node from which settings are read back. It is what
// the nats workload family uses when there is no --target, and what
// `stampede nats serve` serves.
//
// Nodes are child processes (stampede re-executing itself with the hidden
// `stampede nats node` command) rather than servers inside stampede's
// process, so that a node's CPU is measurable apart from the load
// generator's and killing a node is a real crash (SIGKILL), not a
// cooperative shutdown.
package natscluster

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// NodeConfigEnv names the environment variable that carries a node's
// config file to a child process. Test binaries call RunNodeIfChild from
// TestMain so that they can serve as the node program.
const NodeConfigEnv = "STAMPEDE_NATS_NODE_CONFIG"

// readyLine is what a node prints on stdout once it accepts clients.
const readyLine = "ready"

// RunNode runs one nats-server from the config file at path until stdin
// reaches EOF (the parent closed it or died) or SIGTERM/SIGINT arrives,
// then shuts the server down. It prints readyLine on stdout once the
// server accepts connections.
func RunNode(path string, stdin io.Reader, stdout io.Writer) error {
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		return fmt.Errorf("nats node config %s: %w", path, err)
	}
	opts.NoSigs = true
	s, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("nats node: %w", err)
	}
	s.ConfigureLogger()
	go s.Start()
	if !s.ReadyForConnections(60 * time.Second) {
		s.Shutdown()
		return fmt.Errorf("nats node %s: not ready for connections within 60s", opts.ServerName)
	}
	fmt.Fprintln(stdout, readyLine)
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, bufio.NewReader(stdin))
		close(done)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	select {
	case <-done:
	case <-sig:
	}
	s.Shutdown()
	s.WaitForShutdown()
	return nil
}

// RunNodeIfChild runs a node and exits when the process was started as
// one (NodeConfigEnv set); otherwise it returns at once. For TestMain.
func RunNodeIfChild() {
	path := os.Getenv(NodeConfigEnv)
	if path == "" {
		return
	}
	if err := RunNode(path, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

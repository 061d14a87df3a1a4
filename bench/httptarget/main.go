// Command httptarget is the minimal local HTTP server the bench/ scripts
// load: GET / answers "ok", GET /work?n=N does N rounds of hashing first
// (a CPU-bound handler that profile-guided optimization can speed up), and
// /debug/pprof serves profiles. It listens on loopback only.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (loopback)")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("httptarget: -addr must be a loopback address, got %q", *addr)
	}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok"))
	})
	http.HandleFunc("/work", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		n = min(max(n, 1), 100000)
		sum := sha256.Sum256([]byte(r.URL.RawQuery))
		for i := 1; i < n; i++ {
			sum = sha256.Sum256(sum[:])
		}
		fmt.Fprintf(w, "%x", sum[:8])
	})
	log.Printf("httptarget listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}

// Command s3server is the S3 server the object-store tests start as a process of
// its own: gofakes3 (MIT) over memory, path-style, on a free port it prints as
// "listening http://HOST:PORT". Requests signed with another access key than
// -key get 403 AccessDenied, as a real store refuses foreign credentials. It is
// test equipment: no graphdp binary links it.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	key := flag.String("key", "test", "the access key id allowed")
	buckets := flag.String("buckets", "", "comma-separated buckets to create")
	flag.Parse()
	be := s3mem.New()
	for _, b := range strings.Split(*buckets, ",") {
		if b != "" {
			if err := be.CreateBucket(b); err != nil {
				log.Fatal(err)
			}
		}
	}
	s3 := gofakes3.New(be).Server()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Authorization"), "Credential="+*key+"/") {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
			return
		}
		s3.ServeHTTP(w, r)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "listening http://%s\n", l.Addr())
	log.Fatal(http.Serve(l, h))
}

package beam

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	fnpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/fnexecution_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
	"google.golang.org/grpc"
)

// The boot loader's arguments as runners pass them: Prism's quoted id
// (processEnvironment in prism/internal/environments.go), the Java runners' full
// set, and what is not the protocol.
func TestParseBootArgs(t *testing.T) {
	b, err := parseBootArgs([]string{"--id='job-001[go]_go'", "--provision_endpoint=localhost:1234"}, &bytes.Buffer{})
	if err != nil || b.id != "job-001[go]_go" || b.provision != "localhost:1234" || b.semiPersist != "/tmp" {
		t.Errorf("prism's arguments: %+v, %v", b, err)
	}
	b, err = parseBootArgs([]string{"--id=1-1", "--provision_endpoint=h:1", "--logging_endpoint=h:2",
		"--artifact_endpoint=h:3", "--control_endpoint=h:4", "--semi_persist_dir=/var/beam"}, &bytes.Buffer{})
	if err != nil || b != (bootArgs{id: "1-1", provision: "h:1", logging: "h:2", artifact: "h:3", control: "h:4", semiPersist: "/var/beam"}) {
		t.Errorf("every argument: %+v, %v", b, err)
	}
	for _, args := range [][]string{
		{"--provision_endpoint=h:1"},            // no id
		{"--id=x"},                              // no provision endpoint
		{"--id=''", "--provision_endpoint=h:1"}, // an empty quoted id
		{"--id=x", "--provision_endpoint=h:1", "--bogus=1"},
		{"--id=x", "--provision_endpoint=h:1", "extra"},
	} {
		if _, err := parseBootArgs(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--worker"}, true}, {[]string{"-worker=true"}, true}, {[]string{"--workers=2"}, false},
		{[]string{"--worker-timeout", "1s"}, false}, {[]string{"--id=x", "--provision_endpoint=h:1"}, false},
	} {
		if got := hasFlag(c.args, "worker"); got != c.want {
			t.Errorf("hasFlag(%q, worker) = %v", c.args, got)
		}
	}
}

// provision serves one ProvisionInfo and records the worker id asked with.
type provision struct {
	fnpb.UnimplementedProvisionServiceServer
	info *fnpb.ProvisionInfo
	ids  []string
}

func (p *provision) GetProvisionInfo(ctx context.Context, _ *fnpb.GetProvisionInfoRequest) (*fnpb.GetProvisionInfoResponse, error) {
	id, _ := grpcx.ReadWorkerID(ctx)
	p.ids = append(p.ids, id)
	return &fnpb.GetProvisionInfoResponse{Info: p.info}, nil
}

// A worker asks the provision service with the runner's id (quotes removed), and
// when neither its arguments nor the provision info give the control endpoint it
// exits 1 saying so, instead of serving nothing.
func TestServeBootedIncompleteProvision(t *testing.T) {
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	p := &provision{info: &fnpb.ProvisionInfo{LoggingEndpoint: &pipepb.ApiServiceDescriptor{Url: "localhost:1"}}}
	fnpb.RegisterProvisionServiceServer(srv, p)
	go srv.Serve(l)
	defer srv.Stop()

	var stderr bytes.Buffer
	code := serveBooted([]string{"--id='w_go'", "--provision_endpoint=" + l.Addr().String()}, &stderr)
	if code != workerExitProvision || !strings.Contains(stderr.String(), "control endpoints") {
		t.Errorf("exit %d; stderr: %s", code, stderr.String())
	}
	if len(p.ids) != 1 || p.ids[0] != "w_go" {
		t.Errorf("provision asked with ids %q, want [w_go]", p.ids)
	}
	stderr.Reset()
	if code := serveBooted([]string{"--id=x"}, &stderr); code != workerExitUsage || !strings.Contains(stderr.String(), "--provision_endpoint") {
		t.Errorf("no provision endpoint: exit %d; stderr: %s", code, stderr.String())
	}
}

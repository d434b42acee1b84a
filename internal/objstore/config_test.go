package objstore

import (
	"context"
	"testing"
)

// A store's client is made for the Config in the context of the access, the
// environment filling what it does not give (AWS_ENDPOINT_URL_S3, then
// AWS_ENDPOINT_URL); two jobs with two endpoints in one process each reach their
// own, and one without an endpoint is not given another job's.
func TestClientsFollowTheContextsConfig(t *testing.T) {
	var made []Config
	Register("s3", func(_ context.Context, c Config) (Store, error) {
		made = append(made, c)
		return &memStore{data: []byte("x")}, nil
	})
	t.Cleanup(func() {
		stores.mu.Lock()
		delete(stores.newStore, "s3")
		stores.mu.Unlock()
		ResetClients()
	})
	ResetClients()
	t.Setenv("AWS_ENDPOINT_URL_S3", "")
	t.Setenv("AWS_ENDPOINT_URL", "http://env")
	open := func(ctx context.Context) {
		t.Helper()
		f, err := Open(ctx, "s3://b/k")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	a := WithConfig(context.Background(), Config{S3Endpoint: "http://a"})
	open(a)
	open(context.Background())
	open(WithConfig(context.Background(), Config{S3Endpoint: "http://b"}))
	open(a) // the client made for a, kept
	t.Setenv("AWS_ENDPOINT_URL_S3", "http://env-s3")
	open(context.Background())
	want := []Config{{"http://a"}, {"http://env"}, {"http://b"}, {"http://env-s3"}}
	if len(made) != len(want) {
		t.Fatalf("clients made for %v, want %v", made, want)
	}
	for i := range want {
		if made[i] != want[i] {
			t.Errorf("client %d made for %v, want %v", i, made[i], want[i])
		}
	}
}

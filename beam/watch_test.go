package beam

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// fakeJobs is a job server with one job: its messages, its metrics (nil: none yet;
// unimplemented: the server has none) and the cancels it got.
type fakeJobs struct {
	jobpb.JobServiceClient // methods watch does not call panic
	msgs                   chan *jobpb.JobMessagesResponse
	metrics                []*pipepb.MonitoringInfo
	unimplemented          bool
	mu                     sync.Mutex
	cancels                int
}

type fakeStream struct {
	grpc.ClientStream
	ctx  context.Context
	msgs chan *jobpb.JobMessagesResponse
}

func (s *fakeStream) Recv() (*jobpb.JobMessagesResponse, error) {
	select {
	case m, ok := <-s.msgs:
		if !ok {
			return nil, errors.New("EOF from the fake: closed")
		}
		return m, nil
	case <-s.ctx.Done():
		return nil, status.Error(codes.Canceled, "context canceled")
	}
}

func (f *fakeJobs) GetMessageStream(ctx context.Context, _ *jobpb.JobMessagesRequest, _ ...grpc.CallOption) (jobpb.JobService_GetMessageStreamClient, error) {
	return &fakeStream{ctx: ctx, msgs: f.msgs}, nil
}

func (f *fakeJobs) GetJobMetrics(context.Context, *jobpb.GetJobMetricsRequest, ...grpc.CallOption) (*jobpb.GetJobMetricsResponse, error) {
	if f.unimplemented {
		return nil, status.Error(codes.Unimplemented, "no metrics")
	}
	return &jobpb.GetJobMetricsResponse{Metrics: &jobpb.MetricResults{Attempted: f.metrics}}, nil
}

func (f *fakeJobs) GetState(context.Context, *jobpb.GetJobStateRequest, ...grpc.CallOption) (*jobpb.JobStateEvent, error) {
	return &jobpb.JobStateEvent{State: jobpb.JobState_RUNNING}, nil
}

func (f *fakeJobs) Cancel(context.Context, *jobpb.CancelJobRequest, ...grpc.CallOption) (*jobpb.CancelJobResponse, error) {
	f.mu.Lock()
	f.cancels++
	f.mu.Unlock()
	return &jobpb.CancelJobResponse{State: jobpb.JobState_CANCELLING}, nil
}

func stateMsg(s jobpb.JobState_Enum) *jobpb.JobMessagesResponse {
	return &jobpb.JobMessagesResponse{Response: &jobpb.JobMessagesResponse_StateResponse{StateResponse: &jobpb.JobStateEvent{State: s}}}
}

func message(imp jobpb.JobMessage_MessageImportance, text string) *jobpb.JobMessagesResponse {
	return &jobpb.JobMessagesResponse{Response: &jobpb.JobMessagesResponse_MessageResponse{MessageResponse: &jobpb.JobMessage{Importance: imp, MessageText: text}}}
}

// The launcher's view of a job (watch): done, failed before or after progress, no
// progress at all (cancelled, *WorkerError, in about the timeout), a server without
// metrics (no check: waits for the job), and an interrupted launcher (cancels it).
func TestWatch(t *testing.T) {
	const env = "environment_type=beam:env:process:v1"
	progress := []*pipepb.MonitoringInfo{{Urn: "beam:metric:element_count:v1"}}
	run := func(f *fakeJobs, ctx context.Context, timeout time.Duration) (error, time.Duration) {
		start := time.Now()
		err := watch(ctx, f, "job-1", timeout, env, quiet)
		return err, time.Since(start)
	}
	feed := func(ms ...*jobpb.JobMessagesResponse) chan *jobpb.JobMessagesResponse {
		c := make(chan *jobpb.JobMessagesResponse, len(ms))
		for _, m := range ms {
			c <- m
		}
		return c
	}

	f := &fakeJobs{msgs: feed(stateMsg(jobpb.JobState_RUNNING), stateMsg(jobpb.JobState_DONE))}
	if err, _ := run(f, context.Background(), time.Minute); err != nil || f.cancels != 0 {
		t.Errorf("done: %v, %d cancels", err, f.cancels)
	}

	f = &fakeJobs{msgs: feed(stateMsg(jobpb.JobState_RUNNING), stateMsg(jobpb.JobState_FAILED),
		message(jobpb.JobMessage_JOB_MESSAGE_ERROR, "worker gone\nstage dump"+strings.Repeat(".", 500)))}
	err, _ := run(f, context.Background(), time.Minute)
	if err == nil || !strings.Contains(err.Error(), "failed before any worker reported progress: worker gone … (in full") ||
		!strings.Contains(err.Error(), env) || strings.Contains(err.Error(), "stage dump") {
		t.Errorf("failed at once: %v", err)
	}

	f = &fakeJobs{msgs: make(chan *jobpb.JobMessagesResponse), metrics: progress}
	go func() {
		time.Sleep(1500 * time.Millisecond) // after the first check saw progress
		f.msgs <- message(jobpb.JobMessage_JOB_MESSAGE_ERROR, strings.Repeat("é", 400))
		f.msgs <- stateMsg(jobpb.JobState_FAILED)
	}()
	err, _ = run(f, context.Background(), time.Minute)
	if err == nil || !strings.HasPrefix(err.Error(), "job job-1 failed: é") || strings.Contains(err.Error(), "before any worker") || !strings.Contains(err.Error(), "…") {
		t.Errorf("failed after progress: %v", err)
	}

	f = &fakeJobs{msgs: feed(stateMsg(jobpb.JobState_RUNNING))}
	err, took := run(f, context.Background(), 2*time.Second)
	var we *WorkerError
	if !errors.As(err, &we) || we.State != "RUNNING" || we.Environment != env || f.cancels != 1 || took > 5*time.Second {
		t.Errorf("no progress: %v after %v, %d cancels", err, took, f.cancels)
	}

	f = &fakeJobs{msgs: make(chan *jobpb.JobMessagesResponse), unimplemented: true}
	go func() {
		time.Sleep(2500 * time.Millisecond) // beyond the timeout: no check without metrics
		f.msgs <- stateMsg(jobpb.JobState_DONE)
	}()
	if err, _ := run(f, context.Background(), time.Second); err != nil || f.cancels != 0 {
		t.Errorf("no metrics: %v, %d cancels", err, f.cancels)
	}

	f = &fakeJobs{msgs: make(chan *jobpb.JobMessagesResponse), metrics: progress}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err, _ := run(f, ctx, time.Minute); !errors.Is(err, context.DeadlineExceeded) || f.cancels != 1 {
		t.Errorf("interrupted: %v, %d cancels", err, f.cancels)
	}
}

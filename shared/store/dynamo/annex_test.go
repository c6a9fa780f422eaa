package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/duetbot/duet/shared/annex"
	"github.com/duetbot/duet/shared/duet"
	"github.com/duetbot/duet/shared/store/dynamo/dynamotest"
)

// annexStore returns a Store on a fresh table of the DynamoDB at
// DYNAMODB_ENDPOINT, or skips the test.
func annexStore(t *testing.T, opts ...Option) *Store {
	t.Helper()
	endpoint := dynamotest.Endpoint(t)
	ctx := context.Background()
	client, err := NewClient(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	table := fmt.Sprintf("annex-test-%d", time.Now().UnixNano())
	if err := CreateTable(ctx, client, table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	return New(client, table, opts...)
}

func TestAnnexExchanges(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2024, 3, 4, 9, 0, 0, 500, time.UTC)
	s := annexStore(t, WithTTL(time.Hour), WithClock(func() time.Time { return now }))
	first := annex.Exchange{Conversation: "c1", At: now,
		Request: annex.Message{From: "U2", ID: "m1", Text: "hi", Timestamp: "2024-03-04T09:00:00Z", Tagged: []string{"U1"}},
		Reply:   annex.Message{From: annex.BotFrom, ID: "b1", Text: "hello", Timestamp: "2024-03-04T09:00:01Z"}}
	second := first
	second.Request.ID, second.Request.Timestamp, second.Reply.Text = "m2", "2024-03-04T09:05:00Z", "again"
	for _, ex := range []annex.Exchange{second, first, first} {
		if err := s.SaveExchange(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Exchanges(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Request.ID != "m1" || got[1].Reply.Text != "again" || got[0].Request.Tagged[0] != "U1" || !got[0].At.Equal(now) {
		t.Errorf("exchanges: got %+v, want m1 then m2, as saved", got)
	}
	now = now.Add(time.Hour + time.Second)
	if got, _ := s.Exchanges(ctx, "c1"); len(got) != 0 {
		t.Errorf("after the TTL: got %d exchanges, want 0 (expired items are absent)", len(got))
	}
}

func TestAnnexPersona(t *testing.T) {
	ctx := context.Background()
	s := annexStore(t)
	if _, err := s.LoadPersona(ctx, "Ada"); !errors.Is(err, duet.ErrNotFound) {
		t.Errorf("LoadPersona before import: got %v, want ErrNotFound", err)
	}
	big := annex.PersonaData{Name: "Ada", ID: "U1", Username: "ada"}
	for i := range 12 {
		big.Pairs = append(big.Pairs, annex.Pair{Prompt: fmt.Sprintf("q%d", i), Answer: fmt.Sprintf("a%d", i)})
	}
	if err := s.SavePersona(ctx, big); err != nil {
		t.Fatal(err)
	}
	small := annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{{Answer: "only"}, {Prompt: "q", Answer: "two"}}}
	if err := s.SavePersona(ctx, small); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Ada", "ada", "ADA "} {
		got, err := s.LoadPersona(ctx, name)
		if err != nil {
			t.Fatalf("LoadPersona(%q): %v", name, err)
		}
		if len(got.Pairs) != 2 || got.Pairs[0].Answer != "only" || got.Pairs[1].Prompt != "q" || got.ID != "U1" || got.Name != "Ada" {
			t.Errorf("LoadPersona(%q) after a smaller import: got %+v, want its 2 pairs, named Ada", name, got)
		}
	}
}

// TestPersonaReplaceKeepsThePrevious: an import that fails half-way (a
// pair too large for DynamoDB) leaves the stored persona whole, as it
// was; a complete one replaces it, and the previous version's items are
// deleted.
func TestPersonaReplaceKeepsThePrevious(t *testing.T) {
	ctx := context.Background()
	s := annexStore(t)
	old := annex.PersonaData{Name: "Ada", ID: "U1", Username: "ada"}
	for i := range 5 {
		old.Pairs = append(old.Pairs, annex.Pair{Prompt: fmt.Sprintf("q%d", i), Answer: fmt.Sprintf("old %d", i)})
	}
	if err := s.SavePersona(ctx, old); err != nil {
		t.Fatal(err)
	}
	failing := annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{{Answer: "new 0"}, {Answer: "new 1"}, {Answer: strings.Repeat("x", 500<<10)}}}
	if err := s.SavePersona(ctx, failing); err == nil {
		t.Fatal("a persona with a 500 KB pair was saved; want DynamoDB to refuse it")
	}
	got, err := s.LoadPersona(ctx, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pairs) != 5 || got.Pairs[0].Answer != "old 0" || got.Pairs[4].Answer != "old 4" {
		t.Errorf("after a failed import: got %+v, want the previous persona's 5 pairs unchanged", got.Pairs)
	}

	replacement := annex.PersonaData{Name: "Ada", ID: "U1", Pairs: []annex.Pair{{Answer: "new 0"}, {Prompt: "q", Answer: "new 1"}}}
	if err := s.SavePersona(ctx, replacement); err != nil {
		t.Fatal(err)
	}
	got, err = s.LoadPersona(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pairs) != 2 || got.Pairs[0].Answer != "new 0" || got.Pairs[1].Prompt != "q" {
		t.Errorf("after a complete import: got %+v, want its 2 pairs", got.Pairs)
	}
	items := 0
	err = s.queryPrefix(ctx, personaPrefix+"ada", pairPrefix, func(map[string]types.AttributeValue) error { items++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if items != 2 {
		t.Errorf("the table holds %d pair items for Ada, want the current version's 2 (the others deleted)", items)
	}
}

// queryCounter counts the Query calls (pages) a store makes.
type queryCounter struct {
	API
	queries int
}

func (q *queryCounter) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	q.queries++
	return q.API.Query(ctx, in, opts...)
}

// TestAnnexPersonaPages: a persona larger than one Query page (1 MB) is
// read whole, through the SDK's paginator.
func TestAnnexPersonaPages(t *testing.T) {
	ctx := context.Background()
	s := annexStore(t)
	answer := strings.Repeat("a long answer of the person, ", 200) // about 6 KB
	p := annex.PersonaData{Name: "Grace Hopper"}
	for i := range 300 { // about 1.8 MB
		p.Pairs = append(p.Pairs, annex.Pair{Prompt: fmt.Sprintf("question %d?", i), Answer: answer})
	}
	if err := s.SavePersona(ctx, p); err != nil {
		t.Fatal(err)
	}
	counter := &queryCounter{API: s.client}
	got, err := New(counter, s.table).LoadPersona(ctx, "grace  HOPPER")
	if err != nil || len(got.Pairs) != 300 || got.Pairs[299].Prompt != "question 299?" {
		t.Fatalf("LoadPersona: %d pairs, %v; want all 300 in order", len(got.Pairs), err)
	}
	if counter.queries < 2 {
		t.Errorf("read 1.8 MB of pairs in %d Query pages, want at least 2", counter.queries)
	}
}

// TestAnnexOversizedExchange checks that an exchange DynamoDB refuses as
// invalid (an item over 400 KB, a sort key over 1024 bytes) is the caller's
// error, EINVALID, not an outage.
func TestAnnexOversizedExchange(t *testing.T) {
	ctx := context.Background()
	s := annexStore(t)
	now := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	big := annex.Exchange{Conversation: "c1", At: now,
		Request: annex.Message{From: "U2", ID: "m1", Text: strings.Repeat("x", 500_000), Timestamp: "2024-03-04T09:00:00Z"},
		Reply:   annex.Message{From: annex.BotFrom, ID: "b1", Text: "hello"}}
	longKey := big
	longKey.Request.Text, longKey.Request.ID = "hi", strings.Repeat("i", 1100)
	for name, ex := range map[string]annex.Exchange{"500 KB text": big, "1,100-byte id": longKey} {
		err := s.SaveExchange(ctx, ex)
		if duet.Code(err) != duet.EINVALID {
			t.Errorf("%s: got %v (code %q), want EINVALID", name, err, duet.Code(err))
		}
	}
}

// lostMetaResponse writes a persona's META item, then writes it again
// and returns that second answer, as the SDK does when the first
// answer is lost on the way back and it retries the request.
type lostMetaResponse struct {
	API
	retried int
}

func (l *lostMetaResponse) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if sk, ok := in.Item[SortKey].(*types.AttributeValueMemberS); !ok || sk.Value != personaMetaKey {
		return l.API.PutItem(ctx, in, opts...)
	}
	if _, err := l.API.PutItem(ctx, in, opts...); err != nil {
		return nil, err
	}
	l.retried++
	return l.API.PutItem(ctx, in, opts...)
}

// TestAnnexPersonaRetriedSave: an import whose META write was retried
// after its answer was lost is saved, not refused as another import's
// change; a real other import still is.
func TestAnnexPersonaRetriedSave(t *testing.T) {
	ctx := context.Background()
	s := annexStore(t)
	lost := &lostMetaResponse{API: s.client}
	retrying := New(lost, s.table)
	for i, answer := range []string{"first", "second"} {
		if err := retrying.SavePersona(ctx, annex.PersonaData{Name: "Ada", Pairs: []annex.Pair{{Prompt: "q", Answer: answer}}}); err != nil {
			t.Fatalf("import %d, its META write retried: %v", i+1, err)
		}
		got, err := s.LoadPersona(ctx, "ada")
		if err != nil || len(got.Pairs) != 1 || got.Pairs[0].Answer != answer {
			t.Fatalf("import %d: stored %+v, %v; want its one pair", i+1, got.Pairs, err)
		}
	}
	if lost.retried != 2 {
		t.Fatalf("the META write was retried %d times, want 2", lost.retried)
	}
	// Another import's META between the read and the write is a conflict.
	other := &otherImportFirst{API: s.client, store: s}
	err := New(other, s.table).SavePersona(ctx, annex.PersonaData{Name: "Ada", Pairs: []annex.Pair{{Answer: "mine"}}})
	if !errors.Is(err, duet.ErrConflict) {
		t.Fatalf("an import racing another: %v, want ErrConflict", err)
	}
	if got, _ := s.LoadPersona(ctx, "ada"); len(got.Pairs) != 1 || got.Pairs[0].Answer != "theirs" {
		t.Errorf("after the race the stored persona is %+v, want the other import's", got.Pairs)
	}
}

// otherImportFirst saves another import of the persona just before the
// caller's META write.
type otherImportFirst struct {
	API
	store *Store
	done  bool
}

func (o *otherImportFirst) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if sk, ok := in.Item[SortKey].(*types.AttributeValueMemberS); ok && sk.Value == personaMetaKey && !o.done {
		o.done = true
		if err := o.store.SavePersona(ctx, annex.PersonaData{Name: "Ada", Pairs: []annex.Pair{{Answer: "theirs"}}}); err != nil {
			return nil, err
		}
	}
	return o.API.PutItem(ctx, in, opts...)
}

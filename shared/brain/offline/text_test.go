package offline

import "testing"

func TestGibberish(t *testing.T) {
	tests := []struct {
		word string
		want bool
	}{
		{"asdkjh", true},
		{"qwpeoi", true},
		{"zzzzzz", true},
		{"asdfgh", true},
		{"hjkl", true},
		{"bcdfg", true},
		{"wasp", false},
		{"wrist", false},
		{"threatened", false},
		{"liberty", false},
		{"strewn", false},
		{"rhythm", false},
		{"hmm", false},
		{"queen", false},
		{"television", false},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := gibberish(tt.word); got != tt.want {
				t.Errorf("gibberish(%q) = %v, want %v", tt.word, got, tt.want)
			}
		})
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"wasps", "wasp"},
		{"wasp", "wasp"},
		{"stinging", "sting"},
		{"stings", "sting"},
		{"sitting", "sit"},
		{"falling", "fall"},
		{"threatened", "threaten"},
		{"flies", "fly"},
		{"watches", "watch"},
		{"glass", "glass"},
		{"bus", "bus"},
		{"making", "mak"},
		{"make", "mak"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := stem(tt.in); got != tt.want {
				t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestQuestion(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"Have you ever been stung?", true},
		{"what would you do", true},
		{"I'd run. Would you", true},
		{"do you like wasps", true},
		{"how about you", true},
		{"is it dangerous", true},
		{"When I saw it I ran.", false},
		{"What a mess.", false},
		{"Do it now!", false},
		{"I would stay still.", false},
		{"ok", false},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			if got := analyze(tt.msg).question; got != tt.want {
				t.Errorf("question(%q) = %v, want %v", tt.msg, got, tt.want)
			}
		})
	}
}

func TestContentWords(t *testing.T) {
	tests := []struct {
		msg  string
		want int
	}{
		{"ok", 0},
		{"it depends", 0},
		{"idk maybe", 0},
		{"I don't know what you mean", 0},
		{"asdkjh qwpeoi", 0},
		{"The wasp's sting hurts", 3},
		{"Watching TV", 2},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			if got := analyze(tt.msg).content; got != tt.want {
				t.Errorf("content words of %q = %d, want %d", tt.msg, got, tt.want)
			}
		})
	}
}

func TestTopics(t *testing.T) {
	tests := []struct {
		context string
		want    []string // the first slot phrases, best first
	}{
		{wasp, []string{"the wasp", "your wrist", "the TV"}},
		{"What is the best way to spend a rainy weekend?", []string{"the rainy weekend"}},
		{"My neighbour plays loud music every night.", []string{"your neighbour"}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.context, func(t *testing.T) {
			pool := slotPool(rankTerms(analyze(tt.context), fromContext), poolSize)
			if len(pool) < len(tt.want) {
				t.Fatalf("got %d topics, want at least %d", len(pool), len(tt.want))
			}
			for i, want := range tt.want {
				if got := pool[i].phrase(); got != want {
					t.Errorf("topic %d: got %q, want %q", i, got, want)
				}
			}
		})
	}
}

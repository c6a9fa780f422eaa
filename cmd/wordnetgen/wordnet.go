package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// wordnet is what wordnetgen reads of WordNet: the noun and adjective
// synsets, each noun's senses (the most used first), the lemmas that are
// verbs and adjectives too, and the words written in lower case anywhere
// (everyday words, not names).
type wordnet struct {
	nouns, adjs   map[string]synset
	senses        map[string][]string // index.noun: lemma → synset offsets
	verbs, adject map[string]bool     // lemmas of index.verb and index.adj
	common        map[string]bool
}

// synset is what wordnetgen reads of a synset: its words, its hypernyms
// (class and instance), what it is part of, and its related adjectives.
type synset struct {
	words      []string
	hypernyms  []string
	instanceOf []string
	partOf     []string
	adjectives []string // offsets in data.adj
}

func readWordNet(dir string) (*wordnet, error) {
	wn := &wordnet{common: map[string]bool{}}
	var err error
	if wn.nouns, err = readSynsets(filepath.Join(dir, "data.noun")); err != nil {
		return nil, err
	}
	if wn.adjs, err = readSynsets(filepath.Join(dir, "data.adj")); err != nil {
		return nil, err
	}
	for _, f := range []string{"data.noun", "data.verb", "data.adj", "data.adv"} {
		if err := commonWords(filepath.Join(dir, f), wn.common); err != nil {
			return nil, err
		}
	}
	if wn.senses, err = readIndex(filepath.Join(dir, "index.noun")); err != nil {
		return nil, err
	}
	verbs, err := readIndex(filepath.Join(dir, "index.verb"))
	if err != nil {
		return nil, err
	}
	adjs, err := readIndex(filepath.Join(dir, "index.adj"))
	if err != nil {
		return nil, err
	}
	wn.verbs, wn.adject = map[string]bool{}, map[string]bool{}
	for l := range verbs {
		wn.verbs[l] = true
	}
	for l := range adjs {
		wn.adject[l] = true
	}
	return wn, nil
}

// descends reports whether noun synset o is, by its class hypernyms
// within depth steps, a kind of the synset want.
func (wn *wordnet) descends(o, want string, depth int) bool {
	if o == want {
		return true
	}
	if depth == 0 {
		return false
	}
	return slices.ContainsFunc(wn.nouns[o].hypernyms, func(h string) bool { return wn.descends(h, want, depth-1) })
}

// isA reports whether noun synset o is an instance of a kind of want:
// Accra of city.
func (wn *wordnet) isA(o, want string) bool {
	return slices.ContainsFunc(wn.nouns[o].instanceOf, func(h string) bool { return wn.descends(h, want, 8) })
}

// readIndex reads a WordNet index file: each lemma's synsets, the most
// used first.
func readIndex(path string) (map[string][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) < 4 || strings.HasPrefix(line, " ") {
			continue
		}
		var synsets, pointers int
		if _, err := fmt.Sscan(fs[2], &synsets); err != nil {
			return nil, fmt.Errorf("%s: bad line %.40q", path, line)
		}
		if _, err := fmt.Sscan(fs[3], &pointers); err != nil || len(fs) < 6+pointers+synsets {
			return nil, fmt.Errorf("%s: bad line %.40q", path, line)
		}
		out[fs[0]] = fs[len(fs)-synsets:]
	}
	return out, nil
}

// readSynsets reads a WordNet data file: offset, lexicographer file, type,
// word count (hex), words with their lex ids, pointer count, pointers.
func readSynsets(path string) (map[string]synset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]synset{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence
		}
		fs := strings.Fields(strings.SplitN(line, " | ", 2)[0])
		if len(fs) < 4 {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(fs[3], "%x", &n); err != nil || len(fs) < 5+2*n {
			return nil, fmt.Errorf("%s: bad synset line %.40q", path, line)
		}
		var s synset
		for i := range n {
			s.words = append(s.words, fs[4+2*i])
		}
		for i := 5 + 2*n; i+3 < len(fs); i += 4 {
			switch fs[i] {
			case "@":
				s.hypernyms = append(s.hypernyms, fs[i+1])
			case "@i":
				s.instanceOf = append(s.instanceOf, fs[i+1])
			case "#p":
				s.partOf = append(s.partOf, fs[i+1])
			case "+":
				if fs[i+2] == "a" || fs[i+2] == "s" {
					s.adjectives = append(s.adjectives, fs[i+1])
				}
			}
		}
		out[fs[0]] = s
	}
	return out, sc.Err()
}

// commonWords adds to into the words of a WordNet data file written in
// lower case: everyday words, not names.
func commonWords(path string, into map[string]bool) error {
	syns, err := readSynsets(path)
	if err != nil {
		return err
	}
	for _, s := range syns {
		for _, w := range s.words {
			w = strings.TrimSuffix(w, "(a)")
			if w == strings.ToLower(w) {
				into[w] = true
			}
		}
	}
	return nil
}

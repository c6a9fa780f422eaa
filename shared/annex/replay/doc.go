// Package replay is the annex evaluator: it replays a person's transcript
// against one or more bots by growing prefixes (the first question alone;
// then question 1, the person's answer 1 and question 2; and so on), and
// scores each reply by the embedding similarity of the reply to the person's
// original answer. Compat "emeval" reproduces the original hive/annex
// scorer instead: question + " " + answer embedded on both sides, and points
// 0..100 min-max scaled across the candidates of each turn.
package replay

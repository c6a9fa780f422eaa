package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/duetbot/duet/shared/clariq"
)

// missingFlags names the required flags left empty in flags (flag name to
// value), or returns "" when none is.
func missingFlags(flags map[string]string) string {
	var missing []string
	for name, v := range flags {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	slices.Sort(missing)
	return "missing " + strings.Join(missing, ", ")
}

// shareTopics fails when the run file runPath names none of the labelled
// topics: every metric would then be zero, which says nothing about the run.
func shareTopics(labels []clariq.Topic, labelsPath, runPath string, runTopics []string) error {
	if len(labels) == 0 || clariq.SharedTopics(labels, runTopics) > 0 {
		return nil
	}
	example := func(ids []string) string {
		if len(ids) == 0 {
			return "none"
		}
		return fmt.Sprintf("e.g. %q", ids[0])
	}
	labelIDs := make([]string, len(labels))
	for i, t := range labels {
		labelIDs[i] = t.ID
	}
	return fmt.Errorf("%s and %s share no topic (%d run topics, %s; %d labelled, %s): was the run made from these labels' requests?",
		runPath, labelsPath, len(runTopics), example(runTopics), len(labels), example(labelIDs))
}

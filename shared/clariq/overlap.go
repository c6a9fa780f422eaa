package clariq

// SharedTopics counts the labelled topics that runTopics name, comparing
// topic ids as the metrics do ("101" and "0101" are one topic). A run that
// shares none with its labels scores zero everywhere, which says nothing.
func SharedTopics(labels []Topic, runTopics []string) int {
	run := make(map[string]bool, len(runTopics))
	for _, t := range runTopics {
		run[canonTopic(t)] = true
	}
	n := 0
	for _, tp := range labels {
		if run[canonTopic(tp.ID)] {
			n++
		}
	}
	return n
}

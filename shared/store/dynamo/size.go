package dynamo

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ItemSize returns the size of an item as DynamoDB bills it: for each
// attribute, the bytes of its name and of its value (strings in UTF-8,
// numbers at about one byte per two significant digits plus one, lists and
// maps with three bytes of overhead and one per element). A write costs one
// unit per started KB of the larger of the old and new item; a strongly
// consistent read one unit per started 4 KB.
func ItemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberSS:
		n := 0
		for _, e := range v.Value {
			n += len(e)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, e := range v.Value {
			n += numberSize(e)
		}
		return n
	}
	return 0
}

func numberSize(s string) int {
	digits := strings.Trim(strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "-+"), "0")
	return (len(digits)+1)/2 + 1
}

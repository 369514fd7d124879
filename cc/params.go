package cc

import (
	"fmt"
	"strings"
)

// ParseParams reads a law's parameter list, "key=value,key=value" (spaces
// around items are ignored; "" is no parameters), into a map for New. A
// malformed item or a key given twice is an error naming the item; whether
// the chosen law reads each key is New's check.
func ParseParams(text string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(text) == "" {
		return out, nil
	}
	for _, item := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(item, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%q: want key=value", strings.TrimSpace(item))
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%q given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

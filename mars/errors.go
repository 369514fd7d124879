package mars

import "fmt"

// ParamError reports a parameter Mars cannot use: the field (in CLI
// spelling), its value and what is wrong.
type ParamError struct {
	Field   string
	Value   any
	Problem string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: %s", e.Field, e.Value, e.Problem)
}

func bad(field string, value any, format string, args ...any) error {
	return &ParamError{Field: field, Value: value, Problem: fmt.Sprintf(format, args...)}
}

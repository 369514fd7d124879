package workload

import "fmt"

// FieldError is a bad configuration value. Field is the dotted name the user
// wrote it under (e.g. "workload.load").
type FieldError struct {
	Field   string
	Problem string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// ParseError is a problem on one line of a CDF or flow file. Line counts from
// 1; Name is the file name when known.
type ParseError struct {
	Name    string
	Line    int
	Problem string
}

func (e *ParseError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Problem)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Problem)
}

func lineErr(line int, format string, args ...any) error {
	return &ParseError{Line: line, Problem: fmt.Sprintf(format, args...)}
}

package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rdcn/rdcn/internal/fsfail"
)

// inputError is bad user input: the CLI exits with status 2.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// badInput reports a bad value of a flag or field; format should name the
// value and what is wrong with it.
func badInput(field, format string, args ...any) error {
	return &inputError{msg: field + ": " + fmt.Sprintf(format, args...)}
}

// asInput marks err (typically a validation error from a package) as bad
// input, prefixed with the flag or field it came from.
func asInput(field string, err error) error {
	if err == nil {
		return nil
	}
	var in *inputError
	if errors.As(err, &in) {
		return err
	}
	return &inputError{msg: field + ": " + err.Error()}
}

// stoppedError reports a run stopped early by its own time limit that
// still printed a valid, partial result: exit status 3 (a signal gives an
// interruptedError, 130).
type stoppedError struct{ msg string }

func (e *stoppedError) Error() string { return e.msg }

// exitStopped is the exit status of a stoppedError.
const exitStopped = 3

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// exitInterrupted is the exit status of a run stopped by Ctrl-C (SIGINT):
// 128 + SIGINT, as shells report it; SIGTERM gives 143 (signalBox).
const exitInterrupted = 130

// interruptedError is a run stopped by a signal; what says where.
type interruptedError struct{ what string }

func (e *interruptedError) Error() string { return "interrupted " + e.what }

// outputFailure reports err writing an output: a runtime failure (status
// 1) when the file system failed (read-only, full, I/O error), else bad
// input naming output (a missing, unwritable or wrong path).
func outputFailure(err error, format string, args ...any) error {
	if fsfail.Runtime(err) {
		return fmt.Errorf("output: "+format, args...)
	}
	return badInput("output", format, args...)
}

// Package errors is a stand-in for github.com/pkg/errors: its Is and As
// forward to the standard library's.
package errors

import stderrors "errors"

func New(text string) error { return stderrors.New(text) }

func Is(err, target error) bool { return stderrors.Is(err, target) }

func As(err error, target any) bool { return stderrors.As(err, target) }

// Package hook runs handlers of an event in order, as pocketbase's
// tools/hook does: the last one is the caller's own.
package hook

type Hook[T any] struct{ handlers []func(T) error }

func (h *Hook[T]) Trigger(event T, oneOff ...func(T) error) error {
	for _, fn := range append(h.handlers, oneOff...) {
		if err := fn(event); err != nil {
			return err
		}
	}
	return nil
}

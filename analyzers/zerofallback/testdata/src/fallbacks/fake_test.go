package fallbacks

import "context"

// fakeTaxAPI is a test double: its error branches are test fixtures, not
// production fallbacks.
type fakeTaxAPI struct{ err error }

func (f *fakeTaxAPI) taxCents(ctx context.Context) (int64, error) {
	if f.err != nil {
		return 0, nil
	}
	return 725, nil
}

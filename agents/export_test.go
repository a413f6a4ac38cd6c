package agents

// WithSeedWiring makes New build seed 001's original sequential wiring, to
// measure what the parallel wiring saves.
func WithSeedWiring(o *Options) { o.SeedWiring = true }

// ParseAppraisal exposes the appraisal parser to the tests.
var ParseAppraisal = parseAppraisal

// SameFeelings exposes the speculation's feelings rule to the tests.
var SameFeelings = sameFeelings

package agents

// WithSeedWiring makes New build the graph's original sequential wiring, to
// measure what the parallel wiring saves.
func WithSeedWiring(o *Options) { o.SeedWiring = true }

// ParseAppraisal exposes the appraisal parser to the tests.
var ParseAppraisal = parseAppraisal

// IntentFormat is the intent role's response format.
var IntentFormat = intentFormat

// SameFeelings exposes the speculation's feelings rule to the tests.
var SameFeelings = sameFeelings

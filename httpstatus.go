package nadine

// HTTPStatusCode returns the error code of an outside service's HTTP error
// status, so every adapter retries and fails over alike.
func HTTPStatusCode(status int) string {
	switch {
	case status == 429:
		return ERATELIMIT
	case status == 408 || status >= 500:
		return EUNAVAILABLE
	case status >= 400:
		return EINVALID
	default:
		return EUNAVAILABLE
	}
}

package nadine

// HTTPStatusCode returns the error code of an HTTP error status answered
// by an outside service (a model server, search, weather, translation):
// 429 Too Many Requests is ERATELIMIT; 408 Request Timeout and 5xx are
// EUNAVAILABLE (a later call may work); 401, 403 and the other 4xx are
// EINVALID (the request or the key must change); any other status that is
// not a success is EUNAVAILABLE.
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

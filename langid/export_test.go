package langid

// Decode decodes the embedded tables again, as New does once per process.
var Decode = decode

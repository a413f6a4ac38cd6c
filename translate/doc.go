// Package translate translates replies and inputs between the supported
// languages, with a chat model (Model) or a LibreTranslate-compatible service
// (HTTP), and Ensure checks a reply is in the session language before it is
// published. See docs/architecture.md#translate.
package translate

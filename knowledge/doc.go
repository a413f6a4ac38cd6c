// Package knowledge is Nadine's knowledge base: what she knows about herself
// and the world, shared by all users and kept apart from personal memory
// (the ReAct engine's RagManager, the graph's knowledge RAG agent).
//
// Ingest reads a folder (IngestFS any fs.FS) into KnowledgeChunks:
//
//   - Markdown (.md, .markdown) is split at "#" and "##" headers; each section
//     is a chunk titled by its header path ("Nadine > Abilities") and its text
//     starts with that title. Deeper headers ("###") stay inside their
//     section; text before the first header is titled by the file name.
//     Sections longer than about 1500 characters are split further at
//     paragraph boundaries, each part keeping the title.
//   - Plain text (.txt) is split at blank lines and the paragraphs grouped
//     into chunks of up to about 1000 characters, titled by the file name.
//   - PDF (.pdf) text is extracted page by page, following the text
//     position so that words, lines and paragraphs stay apart, and grouped
//     like plain text; the title and the "page" metadata name the page.
//
// A Markdown image line inside a section, "![caption](path/to/image.jpg)",
// attaches a related visual to the section's chunks: metadata "visual" holds
// the image path (relative links are resolved against the Markdown file's
// folder, and made absolute when ingesting a folder of the file system) and
// "visual_caption" its caption, so the UI can show it when the chunk is
// retrieved. The image markup itself is removed from the text.
//
// Every file is a source the store records (nadine.KnowledgeSource): keyed
// by its absolute path (its path within the file system for IngestFS),
// with the SHA-256 of its content. Ingesting a file recorded with the same
// content and embedder does nothing; a changed file has its chunks
// replaced; files that disappeared from a folder keep theirs. Ingestion
// embeds the chunks of the new and changed files (32 texts per Embed call)
// and stores them with one PutKnowledge call. Unsupported files are
// skipped with a debug log. A file that cannot be read or parsed (such as
// a corrupt PDF) does not stop the others: Ingest stores what it could and
// returns the count with the per-file errors joined, each naming its file.
// An embedder or store failure aborts the whole ingestion and stores
// nothing. Ingester.Run reports files new, changed and unchanged.
//
// Ingester.Rebuild re-embeds the whole knowledge base with a new embedder:
// the chunks of every recorded source as they were ingested (the files
// need not exist any more), and the built-in documents read again from the
// binary.
//
// A default knowledge base about Nadine is embedded in the binary (the
// default folder); EnsureDefault builds it into an empty store. Retrieve
// returns the chunks most similar to a question and records the search in
// the turn's trace.
package knowledge

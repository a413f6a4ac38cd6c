// Package visual is Nadine's visual memory: the memorable scenes
// that the perception layer stores for each user, indexed in a SceneStore and
// recalled by a question ("do you remember me?", "what was I wearing?").
//
// Perception writes, for every memorable scene of a user:
//
//	<root>/<user_id>/memorable_scenes/images/scene_YYYYMMDD_HHMMSS.jpg
//	<root>/<user_id>/memorable_scenes/embeddings/scene_YYYYMMDD_HHMMSS_embedding.npy
//	<root>/<user_id>/memorable_scenes/metadata/scene_YYYYMMDD_HHMMSS_metadata.json
//
// The .npy file holds the CLIP image vector (NumPy float32, shape (D,) or
// (1, D)); ReadNPY is a complete reader for the .npy format. The metadata
// holds scene_id, timestamp, image_path, memorability, emotion_probs and an
// optional description that perception generated. Index (or an Indexer, to
// inject a logger) reads one user's folder into nadine.Scene rows, embedding
// descriptions with a text embedder; IndexAll does every user.
//
// A Retriever recalls the best scene for a question. Its score blends two
// cosine similarities, alpha·sim_image + (1−alpha)·sim_description:
// sim_image compares the question embedded by a CLIP text encoder with the
// scene's CLIP image vector, sim_description compares the question with the
// scene description. The CLIP text encoder is any nadine.Embedder; the
// intended one is the openai package's Embedder pointed at an
// OpenAI-compatible /v1/embeddings server that serves a CLIP text model (the
// same CLIP model perception uses for images, so both live in one space).
// Without it, the Retriever uses description similarity alone and says so in
// the turn's trace. Note that raw CLIP text-to-image cosine similarities are
// small (a good match is often 0.25–0.35), so the default threshold of 0.6
// suits description similarity and must be tuned for CLIP.
//
// DataURL turns a scene image into a data URL for a vision model (the
// response agent attaches the recalled scene to its prompt).
package visual

// Package bedrock is an embed.Embedder over Amazon Titan text embeddings,
// called through the Bedrock runtime's InvokeModel. Titan embeds one text per
// call, so put an embed.Cache with batch size 1 in front of it.
package bedrock

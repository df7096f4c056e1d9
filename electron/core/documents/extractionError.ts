/** Why a document has no text, raised inside the extraction worker and posted back as the reason. */
export class ExtractionError extends Error {
  constructor(
    readonly reason: 'no-text' | 'encrypted' | 'corrupt' | 'too-large' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

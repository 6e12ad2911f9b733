// Reading a file or a download a chunk at a time: progress as it goes, a size limit enforced as the
// bytes arrive (a server may not say the length, a file may be huge), and a way to stop. The
// config-src and weights-src downloads and the dropped checkpoint use it.

/**
 * The bytes of a stream (a File's or a fetch's), at most `limit` of them: `onRead(bytes so far)`
 * after each chunk; `tooLarge(bytes)` makes the error when the limit is passed; null when
 * `job.cancelled` became true meanwhile.
 */
export async function readStream(stream, { limit = Infinity, tooLarge, onRead = () => {}, job = {} }) {
  const reader = stream.getReader();
  const chunks = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.length;
    if (job.cancelled || read > limit) {
      reader.cancel();
      if (job.cancelled) return null;
      throw tooLarge(read);
    }
    chunks.push(value);
    onRead(read);
  }
  return new Blob(chunks).arrayBuffer();
}

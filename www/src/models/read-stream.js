// Reading a file or a download a chunk at a time: progress as it goes, a size limit enforced as the
// bytes arrive (a server may not say the length, a file may be huge), and a way to stop; and
// downloads from the page's own site on top of it. The config-src and weights-src downloads and the
// dropped checkpoint use them. Their problems are worded by each widget (worded.js).

import { wordedError } from './worded.js';
import { speakEnglish } from '../i18n.js';
import panelsTexts from '../locales/en/panels.js';

speakEnglish(panelsTexts);

/**
 * The bytes of a stream (a File's or a fetch's), at most `limit` of them: `onRead(bytes so far)`
 * after each chunk; `tooLarge(bytes, whole)` makes the error when the limit is passed (whole: the
 * size is the stream's whole length, else what was read so far); null when
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
      throw tooLarge(read, false);
    }
    chunks.push(value);
    onRead(read);
  }
  return new Blob(chunks).arrayBuffer();
}

/** `src` (an attribute's URL, relative to the page) as a URL on the page's own site, or null. */
export function siteUrl(src) {
  try {
    const url = new URL(src, document.baseURI);
    return url.origin === location.origin ? url : null;
  } catch {
    return null;
  }
}

/**
 * The bytes at `url`, fetched from the page's own site only (mode same-origin: a redirect to
 * another site fails instead of leaving it), at most `limit` of them (a Content-Length past it is
 * refused before any byte is read): `onRead(bytes so far, total or 0)` after each chunk. `label`
 * (a text, or `(t) => text` in the language of a translator) starts the message of a failed answer
 * ("config.json beside the weights: the server answered 404").
 */
export async function fetchSameSite(url, { label = '', limit, tooLarge, onRead = () => {}, signal }) {
  // `signal` (an AbortController's) stops the download: the promise then rejects with an AbortError.
  const response = await fetch(url, { mode: 'same-origin', credentials: 'same-origin', signal });
  if (!response.ok) {
    const { status } = response;
    throw wordedError((t) => {
      const answered = t('panels.serverAnswered', { status: String(status) });
      const named = typeof label === 'function' ? label(t) : label;
      return named ? t('panels.labelled', { label: named, error: answered }) : answered;
    });
  }
  const total = Number(response.headers.get('content-length')) || 0;
  if (total > limit) throw tooLarge(total, true);
  return readStream(response.body, { limit, tooLarge, onRead: (read) => onRead(read, total) });
}

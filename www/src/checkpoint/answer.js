// What the site's answer for a checkpoint's file says of the file (sources.js reads it as it
// fetches; kept-folder.js asks again to tell whether a kept copy is still the site's).
//
//   answerLength(response)    the file's bytes, 0 when unknown (a compressed answer's length is not the file's)
//   answerVersion(response)   which version the site served, when it says: its ETag, else its Last-Modified; or null

export const answerLength = (response) => (response.headers.get('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0);

export const answerVersion = (response) => response.headers.get('etag') ?? response.headers.get('last-modified');

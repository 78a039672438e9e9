/**
 * Uploads through the one client (api.ts) with their progress. `fetch` reports no upload
 * progress, so a request that wants it passes `fetch: xhrFetch(onProgress)` to the client: the
 * request the client built (its URL, the session's headers from the client's middleware, the
 * multipart body) is sent by XMLHttpRequest, and its answer comes back to the client as a
 * `Response`, read like any other (`ok()`, the error envelope, the generated types).
 */

/** Bytes of the body sent so far, and its size (0 when the browser does not know it). */
export interface Progress {
  loaded: number;
  total: number;
}

/** The part of XMLHttpRequest the transport uses (a fake one in the unit specs). */
export type XhrLike = Pick<
  XMLHttpRequest,
  | 'open'
  | 'setRequestHeader'
  | 'send'
  | 'abort'
  | 'getAllResponseHeaders'
  | 'status'
  | 'statusText'
  | 'responseText'
  | 'onload'
  | 'onerror'
  | 'onabort'
  | 'onloadend'
> & { upload: Pick<XMLHttpRequestUpload, 'onprogress'> };

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The lines of `getAllResponseHeaders()` as Headers. */
export function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/** What fetch rejects with when its signal aborts it (an Error in every realm). */
function aborted(): Error {
  const error = new Error('The request was cancelled');
  error.name = 'AbortError';
  return error;
}

/**
 * A `fetch` for one request of the client that reports the upload's progress. It fails as
 * `fetch` fails: a TypeError when there is no answer, an AbortError when the request's signal
 * aborts it.
 */
export function xhrFetch(
  onProgress: (progress: Progress) => void,
  createXhr: () => XhrLike = () => new XMLHttpRequest(),
): (request: Request) => Promise<Response> {
  return async (request) => {
    // the multipart body as the client encoded it, with the boundary of its Content-Type
    const body = request.body === null ? null : await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const signal = request.signal;
      if (signal.aborted) {
        reject(aborted());
        return;
      }
      const xhr = createXhr();
      const abort = () => xhr.abort();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (e) =>
        onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
      xhr.onload = () => {
        try {
          resolve(
            new Response(NULL_BODY.has(xhr.status) ? null : xhr.responseText, {
              status: xhr.status,
              statusText: xhr.statusText,
              headers: parseHeaders(xhr.getAllResponseHeaders()),
            }),
          );
        } catch (error) {
          reject(error instanceof Error ? error : new TypeError(String(error)));
        }
      };
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.onabort = () => reject(aborted());
      xhr.onloadend = () => signal.removeEventListener('abort', abort);
      signal.addEventListener('abort', abort, { once: true });
      xhr.send(body);
    });
  };
}

/**
 * A multipart body from an object, its parts in the object's order (the import reads `driver`
 * before `file`); a File keeps its name.
 */
export function formData(body: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) form.append(name, value);
  return form;
}

// The server's JSON API (docs/api.md): every call returns parsed JSON or throws an Error with the server's message.

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const reply = await fetch(path, init);
  const text = await reply.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!reply.ok) {
    const error = new Error((data && data.error) || `${reply.status} ${reply.statusText}`);
    error.status = reply.status;
    error.data = data;
    throw error;
  }
  return data;
}

export const api = {
  info: () => call('GET', '/api/info'),
  scenarios: () => call('GET', '/api/scenarios'),
  check: (text, file) => call('POST', '/api/scenarios/check', { text, file }),
  games: () => call('GET', '/api/games'),
  create: (request) => call('POST', '/api/games', request),
  view: (token) => call('GET', `/api/play/${token}`),
  act: (token, index, decisions) => call('POST', `/api/play/${token}/actions`, { index, decisions }),
  undo: (token) => call('POST', `/api/play/${token}/undo`, {}),
  replay: (token) => call('GET', `/api/play/${token}/replay`),
  replayAt: (token, decision) => call('GET', `/api/play/${token}/replay/${decision}`),
  events: (token) => new EventSource(`/api/play/${token}/events`),
};

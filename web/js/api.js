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
  create: (request) => call('POST', '/api/games', request),
  view: (token, logFrom) => call('GET', `/api/play/${token}${logFrom ? `?log_from=${logFrom}` : ''}`),
  summary: (token) => call('GET', `/api/play/${token}/summary`),
  unit: (token, unit) => call('GET', `/api/play/${token}/units/${unit}`),
  explain: (token, unit, action) => call('POST', `/api/play/${token}/explain`, { unit, action }),
  act: (token, action, decisions) => call('POST', `/api/play/${token}/actions`, { action, decisions }),
  actIndex: (token, index, decisions) => call('POST', `/api/play/${token}/actions`, { index, decisions }),
  undo: (token, count, decisions) => call('POST', `/api/play/${token}/undo`, { count, decisions }),
  resign: (token) => call('POST', `/api/play/${token}/resign`, {}),
  rematch: (token) => call('POST', `/api/play/${token}/rematch`, {}),
  replay: (token) => call('GET', `/api/play/${token}/replay`),
  replayAt: (token, decision) => call('GET', `/api/play/${token}/replay/${decision}`),
  review: (token) => call('GET', `/api/play/${token}/review`),
  startReview: (token) => call('POST', `/api/play/${token}/review`, {}),
  contact: (token) => call('GET', `/api/play/${token}/notify`),
  setContact: (token, email, webhook) => call('PUT', `/api/play/${token}/notify`, { email, webhook }),
  events: (token) => new EventSource(`/api/play/${token}/events`),
};

'use strict';
// The fleet page: one host list and the deploy history are read once, then kept live by the event stream
// (api/v1/events); a host's details are read when it is picked. Rows are drawn at most once per frame. Paths are
// relative, so the page works behind a proxy that serves it under a prefix.

const SEVERITY = { failed: 0, lost: 1, drifting: 2, converged: 3 };
const EVENTS_SHOWN = 100;
const fleet = { hosts: new Map(), current: null, deploys: [], changes: false, rollout: null };
const view = { state: '', search: '', selected: null, dirty: false };
const $ = id => document.getElementById(id);

function escape(text) {
  return String(text ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function age(iso) {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 120) return s + 's ago';
  if (s < 7200) return Math.floor(s / 60) + 'm ago';
  if (s < 172800) return Math.floor(s / 3600) + 'h ago';
  return Math.floor(s / 86400) + 'd ago';
}

// Where a host is with deploy `id`, by the rules of /api/v1/deploys/ID's "progress".
function progress(host, id) {
  if (host.deploy === id && host.converged && host.failed.length === 0 && !host.error) return 'converged';
  if ((host.assigned_deploy === id && host.error) || (host.deploy === id && host.converged && host.failed.length > 0)) return 'failed';
  if (!host.alive) return 'lost';
  if (host.assigned_deploy === id || host.deploy === id) return 'applying';
  return 'pending';
}

function matches(host) {
  if (view.state && host.state !== view.state) return false;
  if (!view.search) return true;
  const q = view.search;
  return host.host.toLowerCase().includes(q) || host.failed.some(f => f.id.toLowerCase().includes(q));
}

function redraw() {
  if (view.dirty) return;
  view.dirty = true;
  requestAnimationFrame(draw);
}

function draw() {
  view.dirty = false;
  const all = [...fleet.hosts.values()];
  const counts = { converged: 0, drifting: 0, failed: 0, lost: 0 };
  for (const h of all) counts[h.state]++;
  $('count-all').textContent = all.length;
  for (const s in counts) $('count-' + s).textContent = counts[s];
  const shown = all.filter(matches).sort((a, b) => SEVERITY[a.state] - SEVERITY[b.state] || a.host.localeCompare(b.host));
  const rows = shown.map(h => {
    const first = h.failed[0];
    const failure = first ? first.id + ': ' + first.error : h.error || '';
    return `<tr class="${h.state}${h.host === view.selected ? ' selected' : ''}" data-host="${escape(h.host)}" data-state="${h.state}">`
      + `<td>${escape(h.host)}</td><td><span class="badge ${h.state}">${h.state}</span></td>`
      + `<td>${h.deploy ?? '-'}</td><td>${h.summary ? h.summary.changed : '-'}</td><td>${h.summary ? h.summary.failed : '-'}</td>`
      + `<td>${age(h.updated)}</td><td class="error" title="${escape(failure)}">${escape(failure.split('\n')[0])}</td></tr>`;
  });
  document.querySelector('#hosts tbody').innerHTML = rows.join('');
  $('shown').textContent = shown.length === all.length ? `${all.length} hosts` : `${shown.length} of ${all.length} hosts shown`;
  drawProgress(all);
  drawWaves();
  drawDeploys();
}

// The current deploy's rollout, as /api/v1/deploys/ID and the wave and rollout events carry it: a halted wave red,
// with the hosts that failed or did not settle, and a resume button.
function drawWaves() {
  const rollout = fleet.rollout;
  $('rollout').hidden = !rollout;
  if (!rollout) return;
  $('rollout-state').textContent = rollout.state;
  $('rollout-reason').textContent = rollout.state === 'stalled' ? rollout.reason ?? '' : '';
  const resume = $('resume');
  resume.hidden = rollout.state !== 'stalled';
  resume.disabled = !fleet.changes;
  resume.title = fleet.changes ? `check wave ${rollout.wave}'s hosts again and go on` : 'changes are disabled: the coordinator runs without --api-token-file';
  $('waves').innerHTML = rollout.waves.map(w => {
    const halted = w.state === 'halted' || w.state === 'timed-out';
    const stuck = halted ? [...w.failed, ...(w.state === 'timed-out' ? w.pending : [])] : [];
    return `<li class="${w.state}" data-wave="${w.wave}" data-state="${w.state}">wave ${w.wave}${w.canary ? ' (canary)' : ''} ${w.state}`
      + ` ${w.converged.length}/${w.hosts.length}`
      + (stuck.length ? ` <span class="hosts">${w.state === 'halted' ? 'failed' : 'not settled'}: ${escape(stuck.join(', '))}</span>` : '') + '</li>';
  }).join('');
}

function drawProgress(all) {
  const id = fleet.current;
  $('current-id').textContent = id ?? 'none';
  const deploy = fleet.deploys.find(d => d.id === id);
  $('current-message').textContent = deploy ? `${deploy.message} (${deploy.who})` : '';
  const counts = { converged: 0, failed: 0, lost: 0, applying: 0, pending: 0 };
  if (id != null) for (const h of all) counts[progress(h, id)]++;
  const total = all.length || 1;
  for (const bar of $('progress').children) { // widths through the CSSOM: the page's CSP allows no inline style
    bar.style.width = (100 * counts[bar.className] / total).toFixed(2) + '%';
    bar.title = `${bar.className} ${counts[bar.className]}`;
  }
  $('progress-text').textContent = id == null ? '' : Object.entries(counts).map(([p, n]) => `${p} ${n}`).join(', ');
}

function drawDeploys() {
  const newest = [...fleet.deploys].reverse();
  const previous = id => Math.max(0, ...fleet.deploys.filter(d => d.id < id).map(d => d.id));
  document.querySelector('#deploys tbody').innerHTML = newest.map(d => {
    const current = d.id === fleet.current;
    const rolledBack = fleet.current != null && d.id > fleet.current;
    const cls = current ? 'current' : rolledBack ? 'rolled-back' : '';
    const button = current && previous(d.id) > 0
      ? `<button type="button" data-rollback="${d.id}" ${fleet.changes ? '' : 'disabled title="changes are disabled: the coordinator runs without --api-token-file"'}>roll back to ${previous(d.id)}</button>`
      : rolledBack ? 'rolled back' : '';
    return `<tr class="${cls}" data-deploy="${d.id}"><td>${d.id}${current ? ' *' : ''}</td><td>${escape(d.time.replace('T', ' ').replace(/\.\d+Z|Z/, ''))}</td>`
      + `<td>${escape(d.who)}</td><td>${escape(d.message)}</td><td>${button}</td></tr>`;
  }).join('');
}

async function showHost(name) {
  view.selected = name;
  redraw();
  const section = $('host');
  section.hidden = false;
  $('host-name').textContent = name;
  let host;
  try {
    host = await api('api/v1/hosts/' + encodeURIComponent(name));
  } catch (e) {
    $('host-body').innerHTML = `<p class="note">${escape(e.message)}</p>`;
    return;
  }
  if (view.selected !== name) return;
  $('host-state').className = 'badge ' + host.state;
  $('host-state').textContent = host.state;
  const failures = host.failed.map(f => `<div class="failure" data-resource="${escape(f.id)}"><code>${escape(f.id)}</code>`
    + (f.file ? ` <span class="where">${escape(f.file)}:${f.line}:${f.column}</span>` : '')
    + `<pre>${escape(f.error)}</pre></div>`).join('');
  const graph = host.graph
    ? `${host.graph.resources} resource${host.graph.resources === 1 ? '' : 's'} (${Object.entries(host.graph.kinds).map(([k, n]) => `${escape(k)} ${n}`).join(', ')}), ${host.graph.edges} edges, `
      + `deploy ${host.graph.deploy}, graph ${escape(host.graph.sha256.slice(0, 12))}`
    : escape(host.graph_error || 'no graph yet');
  const events = host.events.filter(e => !sameState(e.type, e.data)).map(e => `<li>${escape(describe(e.type, e.data))}</li>`).join('');
  $('host-body').innerHTML =
    `<p>${host.alive ? 'alive' : 'agent gone'}, deploy ${host.deploy ?? '-'} ${host.converged ? 'converged' : 'not converged'}, reported ${age(host.updated)}</p>`
    + (host.error ? `<div class="failure"><code>error</code><pre>${escape(host.error)}</pre></div>` : '')
    + (failures ? `<h3>failed resources</h3>${failures}` : '')
    + `<h3>graph</h3><p>${graph}</p>`
    + (host.exports.length ? `<p>exports ${escape(host.exports.join(', '))}</p>` : '')
    + `<details><summary>facts</summary><pre>${escape(JSON.stringify(host.facts, null, 2))}</pre></details>`
    + (events ? `<h3>recent events</h3><ol>${events}</ol>` : '');
}

function describe(type, data) {
  switch (type) {
    case 'host': return `${data.host.host}: ${data.previous ? data.previous + ' → ' : ''}${data.host.state}`
      + (data.host.failed.length ? ` (${data.host.failed.length} failed)` : '');
    case 'deploy': return `deploy ${data.deploy.id} created by ${data.deploy.who}: ${data.deploy.message}`;
    case 'current': return `current deploy ${data.current_deploy ?? 'none'}${data.previous ? ' (was ' + data.previous + ')' : ''}`;
    case 'removed': return `${data.host}: removed`;
    case 'wave': return `deploy ${data.deploy}: ` + (data.reason ? `${data.event}, ${data.reason}` : `wave ${data.wave} of ${data.waves} ${data.event}`);
    case 'rollout': return `deploy ${data.deploy}: rollout ${data.event.replace('_', ' ')}`;
    default: return type;
  }
}

// A host's row changed but not its state (a new report): the list shows it, the logs keep transitions.
function sameState(type, data) {
  return type === 'host' && data.previous === data.host.state;
}

function logEvent(type, data) {
  if (sameState(type, data)) return;
  const li = document.createElement('li');
  li.textContent = new Date().toISOString().slice(11, 19) + ' ' + describe(type, data);
  const list = document.querySelector('#events ol');
  list.prepend(li);
  while (list.children.length > EVENTS_SHOWN) list.lastElementChild.remove();
}

async function load() {
  const [hosts, deploys] = await Promise.all([api('api/v1/hosts'), api('api/v1/deploys')]);
  fleet.hosts = new Map(hosts.hosts.map(h => [h.host, h]));
  fleet.current = hosts.current_deploy;
  fleet.deploys = deploys.deploys;
  await loadRollout();
  redraw();
  return hosts.event;
}

async function loadRollout() {
  const id = fleet.current;
  const rollout = id == null ? null : (await api('api/v1/deploys/' + id)).rollout ?? null;
  if (id === fleet.current) fleet.rollout = rollout;
  redraw();
}

let rolloutRefresh = null;
function refreshRollout() { // hosts of a running wave settle: their progress, at most once a second
  if (rolloutRefresh || !fleet.rollout || fleet.rollout.state !== 'running') return;
  rolloutRefresh = setTimeout(() => { rolloutRefresh = null; loadRollout(); }, 1000);
}

function listen(since) {
  const stream = new EventSource('api/v1/events?since=' + encodeURIComponent(since));
  stream.onopen = () => { $('live').className = 'live on'; $('live').textContent = 'live'; };
  stream.onerror = () => { $('live').className = 'live off'; $('live').textContent = 'reconnecting…'; };
  const on = (type, apply) => stream.addEventListener(type, message => {
    const data = JSON.parse(message.data);
    apply(data);
    logEvent(type, data);
    redraw();
  });
  on('host', data => {
    fleet.hosts.set(data.host.host, data.host);
    if (data.host.host === view.selected) refreshSelected();
    refreshRollout();
  });
  on('removed', data => fleet.hosts.delete(data.host));
  on('current', data => { fleet.current = data.current_deploy; loadRollout(); });
  const rolloutOf = data => { if (data.deploy === fleet.current) fleet.rollout = data.rollout; };
  on('wave', rolloutOf);
  on('rollout', rolloutOf);
  on('deploy', data => { if (!fleet.deploys.some(d => d.id === data.deploy.id)) fleet.deploys.push(data.deploy); });
  stream.addEventListener('reset', () => load()); // what the stream cannot replay is read again
}

let refreshing = null;
function refreshSelected() { // at most once a second, however many events the host has
  if (refreshing) return;
  refreshing = setTimeout(() => { refreshing = null; if (view.selected) showHost(view.selected); }, 1000);
}

// A change (rollback, resume) of deploy `id`, with the token asked once a session; what came of it in `note`.
async function change(id, action, note, said) {
  let token = sessionStorage.getItem('muster-api-token');
  if (!token) token = prompt('The API token (the content of the coordinator\'s --api-token-file):');
  if (!token) return;
  try {
    const done = await api(`api/v1/deploys/${id}/${action}`, { method: 'POST', headers: { Authorization: 'Bearer ' + token } });
    sessionStorage.setItem('muster-api-token', token);
    $(note).textContent = said(done);
  } catch (e) {
    sessionStorage.removeItem('muster-api-token');
    $(note).textContent = `${action} refused: ${e.message}`;
  }
}

document.addEventListener('DOMContentLoaded', async () => {
  document.querySelector('#hosts tbody').addEventListener('click', e => {
    const row = e.target.closest('tr[data-host]');
    if (row) showHost(row.dataset.host);
  });
  $('counts').addEventListener('click', e => {
    const button = e.target.closest('button');
    if (!button) return;
    view.state = button.dataset.state;
    for (const b of $('counts').querySelectorAll('button')) b.classList.toggle('pressed', b === button);
    redraw();
  });
  $('search').addEventListener('input', e => { view.search = e.target.value.trim().toLowerCase(); redraw(); });
  $('deploys').addEventListener('click', e => {
    const button = e.target.closest('button[data-rollback]');
    if (button) change(Number(button.dataset.rollback), 'rollback', 'rollback-note', done => `rolled deploy ${done.from} back to ${done.to}`);
  });
  $('resume').addEventListener('click', () => change(fleet.rollout.deploy, 'resume', 'resume-note',
    done => `resumed deploy ${done.deploy} at wave ${done.wave} of ${done.waves}`));
  setInterval(redraw, 10000); // the ages move on
  const info = await api('api/v1');
  fleet.changes = info.changes;
  $('coordinator').textContent = `${info.coordinator}${info.leading ? ' (leading)' : info.leader ? ', leader ' + info.leader : ''}`;
  listen(await load());
});

// The live dashboard: polls the daemon's /status and /live once a second and
// redraws. Data reaches the page as text (textContent); the one piece of
// markup taken as it comes is the waterfall SVG, which the daemon draws with
// the timeline report's renderer (every label escaped there).
'use strict';

const REFRESH_MS = 1000;
let windowS = 300;
let failures = 0;

const $ = (id) => document.getElementById(id);

// An element with attributes and children (strings become text nodes).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'class') e.className = v;
    else e.setAttribute(k, String(v));
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

function fmtSecs(s) {
  if (s === undefined || s === null) return '-';
  if (s < 60) return s.toFixed(s < 10 ? 1 : 0) + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min ' + String(Math.floor(s % 60)).padStart(2, '0') + ' s';
  return Math.floor(s / 3600) + ' h ' + String(Math.floor((s % 3600) / 60)).padStart(2, '0') + ' min';
}

function fmtBytes(b) {
  if (!b) return '0 B';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
  return (i === 0 ? b.toFixed(0) : b.toFixed(1)) + ' ' + units[i];
}

function pct(f) { return (100 * f).toFixed(f >= 0.995 || f === 0 ? 0 : 1) + '%'; }

function shortId(id) { return id.length > 12 ? id.slice(0, 8) + '…' : id; }

// The report's utilization scale: red (0) through amber to green (1).
function utilColor(f) {
  const stops = [[214, 39, 40], [242, 177, 52], [89, 161, 79]];
  f = Math.min(1, Math.max(0, f));
  const k = f < 0.5 ? 0 : 1, u = f < 0.5 ? f * 2 : (f - 0.5) * 2;
  const c = stops[k].map((v, i) => Math.round(v + (stops[k + 1][i] - v) * u));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function bar(f, color) {
  const s = el('span');
  s.style.width = (100 * Math.min(1, Math.max(0, f))).toFixed(1) + '%';
  s.style.background = color;
  return el('div', { class: 'bar', role: 'img', 'aria-label': pct(f) }, s);
}

function fillTable(id, rows, emptyText, columns) {
  const body = $(id).tBodies[0];
  body.replaceChildren();
  if (rows.length === 0) {
    body.append(el('tr', {}, el('td', { class: 'empty', colspan: columns }, emptyText)));
    return;
  }
  for (const r of rows) body.append(r);
}

// The partitions' states as a stage name: the furthest step any partition is in.
function stage(p) {
  const n = (st) => p.partitions.filter((x) => x.state === st).length;
  if (n('gpu')) return 'on device (' + n('gpu') + ')';
  if (n('synth_done')) return 'waiting for device (' + n('synth_done') + ')';
  if (n('synthesizing')) return 'synthesizing (' + n('synthesizing') + ')';
  if (p.partitions_done === p.total_partitions) return 'assembling';
  return 'starting';
}

function renderDevices(status, live) {
  const busy = new Map(((live && live.devices) || []).map((d) => [d.device, d]));
  const cards = status.devices.map((d) => {
    const b = busy.get(d.ordinal);
    const f = b ? b.busy_fraction : 0;
    const win = b ? b.window_s : 60;
    const job = d.busy_workers > 0
      ? (status.gpu_workers.find((w) => w.gpu_ordinal === d.ordinal && w.current_job) || {}).current_job
      : null;
    return el('div', { class: 'card device', 'data-device': d.ordinal },
      el('h2', {}, 'Device ' + d.ordinal + ' · ', d.name),
      el('div', { class: 'big busy', 'data-busy': f.toFixed(3) }, pct(f) + ' busy'),
      bar(f, utilColor(f)),
      el('div', { class: 'small' }, 'interlock held over the last ' + fmtSecs(win) + ' · ' + d.busy_workers + '/' +
        d.workers + ' workers busy'),
      el('div', { class: 'small' }, job ? 'proving ' + shortId(job) : 'idle'),
      el('div', { class: 'small' }, fmtBytes(d.memory_total - d.memory_free) + ' of ' + fmtBytes(d.memory_total) +
        (d.memory_kind === 'host' ? ' host memory' : ' device memory') + ' in use'));
  });
  $('devices').replaceChildren(...cards);
}

function renderVerdict(live) {
  const box = $('verdict');
  const v = live && live.verdict;
  box.className = 'card' + (v ? ' v-' + v.bottleneck : '');
  const kids = [el('h2', {}, 'Verdict')];
  if (!live) {
    kids.push(el('p', { class: 'small' }, 'no TIMELINE buffer on this listener'));
  } else if (!v) {
    kids.push(el('div', { class: 'big' }, 'idle'), el('div', { class: 'small' }, 'no device work in the last minute'));
  } else {
    const name = v.bottleneck === 'device' || v.bottleneck === 'synthesis' ? v.bottleneck + '-bound' : v.bottleneck;
    kids.push(el('div', {}, el('span', { class: 'badge ' + v.bottleneck }, name)),
      el('div', { class: 'small' }, 'run ' + v.run + ': ' + v.proofs + ' jobs, ' + v.partitions + ' partitions in ' +
        fmtSecs(v.wall_s) + ' · utilization ' + pct(v.device_utilization) + ' · ' + v.s_per_proof.toFixed(1) +
        ' s/proof'),
      el('ul', { class: 'ev' }, ...v.evidence.slice(0, 2).map((e) => el('li', {}, e))));
  }
  box.replaceChildren(...kids);
}

function renderMemory(status) {
  const m = status.memory;
  const f = m.total ? m.used / m.total : 0;
  $('memory').replaceChildren(el('h2', {}, 'Memory budget'),
    el('div', { class: 'big' }, pct(f) + ' used'),
    bar(f, f > 0.9 ? '#e65100' : '#4e79a7'),
    el('div', { class: 'small' }, fmtBytes(m.used) + ' of ' + fmtBytes(m.total) + ' · peak ' + fmtBytes(m.peak)),
    el('div', { class: 'small' }, 'payloads ' + fmtBytes(m.payloads.used) + ' of ' + fmtBytes(m.payloads.limit) +
      ' · recycled buffers ' + fmtBytes(m.recycled.held) + ' (counted in used, freed when short)'));
}

function renderWaterfall(live) {
  const fig = $('waterfall');
  if (!live) {
    fig.replaceChildren(el('p', { class: 'small' }, 'no TIMELINE buffer on this listener'));
    return;
  }
  fig.innerHTML = live.svg;
  $('wfnote').textContent = live.events + ' events buffered' +
    (live.open.synthesis + live.open.device ? ' · ' + live.open.synthesis + ' in synthesis and ' + live.open.device +
      ' on a device right now (drawn up to now)' : '');
}

function renderJobs(status) {
  const rows = status.pipelines.map((p) => el('tr', { 'data-job-id': p.job_id },
    el('td', { title: p.job_id }, p.job_id),
    el('td', {}, p.proof_kind),
    el('td', {}, el('span', { class: 'badge ' + p.priority }, p.priority)),
    el('td', { class: 'stage' }, stage(p)),
    el('td', {}, p.partitions_done + '/' + p.total_partitions + ' done'),
    el('td', {}, fmtSecs(p.started_secs_ago))));
  fillTable('jobs', rows, 'no job in flight', 6);
}

function renderQueues(status) {
  const rows = (status.queues || []).map((q) => el('tr', {},
    el('td', {}, q.proof_kind),
    el('td', {}, el('span', { class: 'badge ' + q.priority }, q.priority)),
    el('td', {}, q.queued_jobs), el('td', {}, q.running_jobs), el('td', {}, q.pending_partitions),
    el('td', {}, q.queued_jobs ? fmtSecs(q.oldest_wait_secs) : '-')));
  fillTable('queues', rows, 'nothing queued', 6);
}

function renderRecent(status) {
  const mark = { completed: '✓ ', failed: '✗ ', cancelled: '– ' };
  const rows = (status.recent || []).map((r) => el('tr', { 'data-job-id': r.job_id, 'data-status': r.status },
    el('td', { title: r.job_id }, r.job_id),
    el('td', {}, r.proof_kind),
    el('td', {}, el('span', { class: 'badge ' + r.status }, (mark[r.status] || '') + r.status)),
    el('td', {}, fmtSecs(r.total_secs)),
    el('td', {}, fmtSecs(r.ended_secs_ago) + ' ago')));
  fillTable('recent', rows, 'no job ended yet', 5);
}

function renderParameters(status) {
  const a = status.allocations || { srs: [], pce: [] };
  fillTable('srs', a.srs.map((s) => el('tr', {},
    el('td', { title: s.circuit_id }, s.circuit_id), el('td', {}, el('span', { class: 'badge ' + s.tier }, s.tier)),
    el('td', {}, fmtBytes(s.size_bytes)), el('td', {}, s.ref_count))), 'no parameters loaded', 4);
  fillTable('pce', a.pce.map((p) => el('tr', {},
    el('td', { title: p.circuit_id }, p.circuit_id), el('td', { title: p.error || '' }, p.state),
    el('td', {}, fmtBytes(p.size_bytes)), el('td', {}, p.proofs))), 'none', 4);
}

// A daemon's last heartbeat: "0.4 s ago", "stale" past the lease (its claim
// loop beats every second), "not registered" for a holder without one.
function lastSeen(d, leaseS) {
  if (d.heartbeat_age_s === null || d.heartbeat_age_s === undefined) {
    return el('span', { class: 'badge stale' }, 'not registered');
  }
  const ago = fmtSecs(d.heartbeat_age_s) + ' ago';
  if (d.heartbeat_age_s > Math.max(3, leaseS || 0)) return el('span', {}, el('span', { class: 'badge stale' }, 'stale'), ' ' + ago);
  return ago;
}

function leaseCell(j) {
  const s = j.lease_remaining_s;
  if (s < 0) return el('span', { class: 'badge expired' }, 'expired ' + fmtSecs(-s) + ' ago');
  return fmtSecs(s) + ' left';
}

function renderFleet(status) {
  const f = status.fleet;
  $('fleet').hidden = !f;
  if (!f) return;
  const q = f.queue || { queued: 0, claimed: 0 };
  const kv = [['this daemon', f.daemon_id], ['database', f.database], ['fleet queue', q.queued + ' queued · ' +
    q.claimed + ' claimed'], ['slots', f.slots], ['running here', f.running], ['claims', f.claims],
    ['results stored', f.completed], ['expired leases reclaimed', f.lease_expiries],
    ['late results discarded', f.results_discarded], ['lease', fmtSecs(f.lease_s)]];
  $('fleetbody').replaceChildren(
    el('dl', { class: 'kv' }, ...kv.flatMap(([k, v]) => [el('dt', {}, k), el('dd', { title: v }, v)])));
  const rows = [];
  for (const d of f.daemons || []) {
    const name = el('td', { title: d.daemon_id }, d.daemon_id, ...(d.this_daemon ? [' ', el('span', { class: 'badge self' }, 'this daemon')] : []));
    const head = [name, el('td', {}, lastSeen(d, f.lease_s)), el('td', {}, d.capacity || '-')];
    if (d.jobs.length === 0) {
      rows.push(el('tr', { 'data-daemon': d.daemon_id }, ...head, el('td', { class: 'empty', colspan: 5 }, 'no job held')));
      continue;
    }
    d.jobs.forEach((j, i) => rows.push(el('tr', { 'data-daemon': d.daemon_id, 'data-job-id': j.job_id,
      'data-lease': j.lease_remaining_s.toFixed(1), 'data-attempts': j.attempts },
      ...(i === 0 ? head : [el('td', {}), el('td', {}), el('td', {})]),
      el('td', { title: j.job_id + (j.circuit_id ? ' · ' + j.circuit_id : '') }, j.job_id),
      el('td', {}, j.proof_kind),
      el('td', {}, el('span', { class: 'badge ' + j.priority }, j.priority)),
      el('td', { class: 'lease' }, leaseCell(j)),
      el('td', {}, j.attempts + ' of ' + j.max_attempts))));
  }
  fillTable('fleetdaemons', rows, f.view_error ? 'not available' : 'no daemon registered', 8);
  const err = $('fleeterror');
  err.hidden = !f.view_error;
  err.textContent = f.view_error ? 'The daemons could not be read: ' + f.view_error : '';
  $('fleetnote').textContent = (f.daemons ? f.daemons.length + ' daemons · ' : '') + 'read ' +
    fmtSecs(f.view_age_s) + ' ago' + (f.view_truncated ? ' · only the first 100 daemons and 500 held jobs' : '');
}

function renderSummary(status) {
  const c = status.counters;
  const active = status.synthesis ? status.synthesis.active + '/' + status.synthesis.max_concurrent : '-';
  $('summary').textContent = 'up ' + fmtSecs(status.uptime_secs) + ' · ' + c.completed + ' completed · ' + c.failed +
    ' failed · ' + c.queue_depth + ' jobs not dispatched · synthesis ' + active + ' · updated ' +
    new Date().toLocaleTimeString();
}

async function fetchJson(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (r.status === 404) return null;
  if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
  return r.json();
}

async function refresh() {
  const fig = $('waterfall');
  const width = Math.max(640, Math.floor(fig.clientWidth || 1200));
  try {
    const [status, live] = await Promise.all([fetchJson('/status'),
      fetchJson('/live?window=' + windowS + '&width=' + width)]);
    if (!status) throw new Error('/status: not found');
    renderSummary(status);
    renderDevices(status, live);
    renderVerdict(live);
    renderMemory(status);
    renderWaterfall(live);
    renderJobs(status);
    renderQueues(status);
    renderRecent(status);
    renderParameters(status);
    renderFleet(status);
    failures = 0;
    $('conn').textContent = 'live';
    $('conn').className = 'conn ok';
  } catch (e) {
    failures++;
    $('conn').textContent = 'no answer from the daemon (' + failures + ')';
    $('conn').className = 'conn lost';
  }
  setTimeout(refresh, REFRESH_MS);
}

$('window').addEventListener('change', (e) => { windowS = Number(e.target.value); });
refresh();

// The runs of `make bench-checkpoint` (scripts/bench-checkpoint.mjs): what else the machine does
// meanwhile, and tblock in its own process, timed, with its peak and sampled resident memory.
//
//   const runs = measuring({ root, tblock, nproc, quietWait, say });
//   await runs.undisturbed(() => runs.timed(['eval', ...]), 'what it is')
//     // after the machine went quiet (under 10% busy over 2 s, waiting up to quietWait s); run again
//     // (up to 3 times) while the rest of the machine used more than 10% of it, then marked disturbed
//   busySeconds(), othersShare(busy, own, wall, nproc)   // for runs timed elsewhere (PyTorch's)

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const TIME = '/usr/bin/time';
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether /usr/bin/time is here (tblock's peak RSS and CPU time come from it). */
export const haveTime = existsSync(TIME);

/** CPU seconds the whole machine has spent busy (every core), from /proc/stat. */
export function busySeconds() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user + nice + system + irq + softirq + steal) / CLK_TCK;
}

/** What the rest of the machine used while a run took `wall` s and `own` CPU seconds. */
export const othersShare = (busy, own, wall, nproc) => Math.max(0, (busy - own) / (wall * nproc));

const DISTURBED = 0.1;
const RETRIES = 3;

export function measuring({ root, tblock, nproc, quietWait, say }) {
  /** Wait (at most quietWait s) until the machine is under 10% busy over 2 s; the busy share last seen. */
  function quiet(nproc) {
    const until = Date.now() + quietWait * 1000;
    let share;
    do {
      const b0 = busySeconds();
      sleep(2000);
      share = (busySeconds() - b0) / (2 * nproc);
    } while (share > 0.1 && Date.now() < until);
    if (share > 0.1) say(`the machine is still ${Math.round(share * 100)}% busy; measuring anyway`);
    return share;
  }

  /** run() after the machine has gone quiet, again while the rest of the machine disturbed it. */
  async function undisturbed(run, what) {
    let r;
    for (let attempt = 1; attempt <= 1 + RETRIES; attempt++) {
      quiet(nproc);
      r = await run();
      r.attempts = attempt;
      r.disturbed = !(r.others_cpu_share <= DISTURBED);
      if (!r.disturbed || r.others_cpu_share === null) break;
      say(`${what}: the rest of the machine used ${Math.round(r.others_cpu_share * 100)}% of it meanwhile${attempt <= RETRIES ? '; again' : '; kept, marked disturbed'}`);
    }
    return r;
  }

  /** kB fields of /proc/<pid>/status, or null once the process is gone. */
  function status(pid) {
    try {
      const text = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (name) => Number(text.match(new RegExp(`^${name}:\\s*(\\d+) kB`, 'm'))?.[1] ?? 0);
      return { anon: kb('RssAnon'), file: kb('RssFile') };
    } catch {
      return null;
    }
  }

  /** The pid of tblock: /usr/bin/time's child, or the process itself. */
  function tblockPid(pid) {
    if (!haveTime) return pid;
    try {
      return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || null;
    } catch {
      return null;
    }
  }

  function timed(args, env = {}) {
    const cmd = haveTime ? TIME : tblock;
    const argv = haveTime ? ['-v', tblock, ...args] : args;
    const busy0 = busySeconds();
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => { stdout += b; });
    child.stderr.on('data', (b) => { stderr += b; });
    const most = { anon: 0, file: 0 };
    const sample = setInterval(() => {
      const pid = tblockPid(child.pid);
      const s = pid && status(pid);
      if (s) {
        most.anon = Math.max(most.anon, s.anon);
        most.file = Math.max(most.file, s.file);
      }
    }, 50);
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        clearInterval(sample);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const busy = busySeconds() - busy0;
        if (code !== 0) return reject(new Error(`tblock ${args.join(' ')} failed (${code}):\n${stderr}`));
        const field = (name) => Number(stderr.match(new RegExp(`${name}: ([\\d.]+)`))?.[1] ?? NaN);
        const rss = field('Maximum resident set size \\(kbytes\\)');
        const cpu = field('User time \\(seconds\\)') + field('System time \\(seconds\\)');
        resolve({
          seconds,
          peak_rss_mib: Number.isNaN(rss) ? null : rss / 1024,
          peak_anonymous_mib: most.anon / 1024,
          peak_file_backed_mib: most.file / 1024,
          cpu_seconds: Number.isNaN(cpu) ? null : cpu,
          others_cpu_share: Number.isNaN(cpu) ? null : othersShare(busy, cpu, seconds, nproc),
          out: JSON.parse(stdout),
        });
      });
    });
  }

  return { undisturbed, timed };
}

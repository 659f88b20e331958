import fs from 'node:fs';

/** Peak resident memory (VmHWM) of a process so far, in MB. */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** CPU seconds (user + system, every thread) the process has used: on a shared machine, what it cost. */
export function cpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses, in clock ticks (100 a second).
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Peak memory of every process this benchmark started (the descendants of this process: a server
 * process and its browser), sampled every 200 ms as proportional set size: shared pages are split
 * between the processes that share them, so the sum is what the tree really costs the machine.
 */
export async function withTreeMemory<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    const parents = new Map<number, number>();
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // the process ended between listing and reading
      }
    }
    const isOurs = (pid: number): boolean => {
      for (let p = parents.get(pid); p && p > 1; p = parents.get(p)) if (p === process.pid) return true;
      return false;
    };
    let total = 0;
    for (const pid of parents.keys()) {
      if (!isOurs(pid)) continue;
      try {
        total += Number(/Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      } catch {
        // ended
      }
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await work();
    sample();
    return { result, peakMb: Math.round(peak / 1024) };
  } finally {
    clearInterval(timer);
  }
}

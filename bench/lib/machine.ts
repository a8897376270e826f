import os from 'node:os';

/** What the numbers depend on besides the code, printed and saved with them. */
export function machineInfo() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}
export type MachineInfo = ReturnType<typeof machineInfo>;

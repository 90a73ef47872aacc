// The charts a lesson step or the embed can show, by name (app/Charts.tsx draws them). No React.

export const CHARTS = ['throughput', 'queues', 'cwnd', 'sizes', 'segs', 'stevens'] as const;
export type ChartName = (typeof CHARTS)[number];

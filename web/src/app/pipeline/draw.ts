// Paints a pipeline scene (model/scene.ts) on a canvas, and records where each thing was
// drawn so that pointer and keyboard can find it again (tooltips, selecting an skb).
//
// Geometry works in two abstract coordinates: `u` along the path (application -> receiver,
// 0..1) and `v` across the sockets' lanes (0..1). A landscape pipeline maps u to x; at phone
// width the pipeline reflows vertically and u maps to y. Everything else is the same code.

import {
  APP_SLEEPING,
  APP_WRITING,
  PKT_ACK,
  SKB_AUTOCORKED,
  SKB_FULL,
  SKB_HELD,
  SKB_SENT,
} from '../../model/derive';
import { skbStateAt, type Scene, type SceneContext } from '../../model/scene';

export type Orientation = 'horizontal' | 'vertical';

export type StageId = 'app' | 'wq' | 'qdisc' | 'ring' | 'wire' | 'rx';

/** Where each stage sits along the path. */
export const STAGES: { id: StageId; u0: number; u1: number }[] = [
  { id: 'app', u0: 0, u1: 0.08 },
  { id: 'wq', u0: 0.09, u1: 0.34 },
  { id: 'qdisc', u0: 0.355, u1: 0.47 },
  { id: 'ring', u0: 0.485, u1: 0.585 },
  { id: 'wire', u0: 0.6, u1: 0.84 },
  { id: 'rx', u0: 0.855, u1: 1 },
];

/** The lanes take v in [0, LANES_END); the ACKs' return strip [ACKS_START, 1]. */
export const LANES_END = 0.82;
export const ACKS_START = 0.86;

export interface Palette {
  text: string;
  muted: string;
  grid: string;
  stage: string;
  filling: string;
  full: string;
  autocork: string;
  sent: string;
  held: Record<string, string>;
  heldOther: string;
  sleeping: string;
  writing: string;
  idle: string;
  flows: string[];
  ack: string;
  pulse: string;
  tsq: string;
  select: string;
  stopped: string;
  delack: string;
  /** A packet that died (a cross) or a segment sent again (a dashed outline). */
  drop: string;
  /** Stroke widths are multiplied by this (`--stroke-scale`; presenter mode draws thicker). */
  stroke: number;
  /** Canvas label size, px (`--canvas-font-px`). */
  fontPx: number;
}

/** Reads the palette from CSS custom properties, so themes live in the stylesheet. */
export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--fg', '#1d1d1f'),
    muted: v('--muted', '#6b6b70'),
    grid: v('--grid', '#d5d5da'),
    stage: v('--stage', '#f3f3f6'),
    filling: v('--skb-filling', '#4c8bf5'),
    full: v('--skb-full', '#2c5fb8'),
    autocork: v('--skb-autocork', '#e8871e'),
    sent: v('--skb-sent', '#9aa0a6'),
    held: {
      nagle: v('--held-nagle', '#c2185b'),
      cork: v('--held-cork', '#8e24aa'),
      tso_defer: v('--held-tso', '#6d4c41'),
      tsq: v('--held-tsq', '#d84315'),
      cwnd: v('--held-cwnd', '#00897b'),
      rwnd: v('--held-rwnd', '#558b2f'),
      pacing: v('--held-pacing', '#5e35b1'),
    },
    heldOther: v('--held-other', '#757575'),
    sleeping: v('--app-sleeping', '#c62828'),
    writing: v('--app-writing', '#2e7d32'),
    idle: v('--app-idle', '#9e9e9e'),
    flows: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => v(`--flow-${i}`, '#4c8bf5')),
    ack: v('--ack', '#6d6d6d'),
    pulse: v('--pulse', '#f9a825'),
    tsq: v('--tsq', '#d84315'),
    select: v('--select', '#000000'),
    stopped: v('--stopped', '#c62828'),
    delack: v('--delack', '#5c7cfa'),
    drop: v('--drop', '#000000'),
    stroke: Number(v('--stroke-scale', '1')) || 1,
    fontPx: Number.parseFloat(v('--canvas-font-px', '10')) || 10,
  };
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Maps (u, v) boxes to pixels for a canvas of w x h CSS pixels.
 *
 * The stage names are HTML (Pipeline.tsx's overlay) in a strip of their own that the lanes never
 * enter, so no name is ever drawn over a lane's content: above the lanes when horizontal
 * (`labelPx` tall), in a gutter on the left when vertical (`labelPx` wide, the names written
 * along the path), with a gutter on the right for the ACKs' name.
 */
export class Geometry {
  readonly pad = 6;
  /** Margins of the drawing area: the label strip or gutters, and the padding. */
  readonly top: number;
  readonly left: number;
  readonly right: number;
  readonly bottom: number;
  constructor(
    readonly w: number,
    readonly h: number,
    readonly orientation: Orientation,
    readonly labelPx = orientation === 'horizontal' ? 22 : 18,
  ) {
    const p = this.pad;
    if (orientation === 'horizontal') {
      this.top = labelPx;
      this.left = p;
      this.right = p;
      this.bottom = p;
    } else {
      this.top = p;
      this.left = labelPx;
      this.right = labelPx;
      this.bottom = p;
    }
  }

  rect(u0: number, u1: number, v0: number, v1: number): Rect {
    return this.rectInto({ x: 0, y: 0, w: 0, h: 0 }, u0, u1, v0, v1);
  }

  /** `rect` written into `out` (the packets' loops reuse one: no object per packet and frame). */
  rectInto(out: Rect, u0: number, u1: number, v0: number, v1: number): Rect {
    const W = this.w - this.left - this.right;
    const H = this.h - this.top - this.bottom;
    if (this.orientation === 'horizontal') {
      out.x = this.left + u0 * W;
      out.y = this.top + v0 * H;
      out.w = (u1 - u0) * W;
      out.h = (v1 - v0) * H;
    } else {
      out.x = this.left + v0 * W;
      out.y = this.top + u0 * H;
      out.w = (v1 - v0) * W;
      out.h = (u1 - u0) * H;
    }
    return out;
  }

  /** Pixels per unit of u and of v. */
  alongPx(): number {
    return this.orientation === 'horizontal'
      ? this.w - this.left - this.right
      : this.h - this.top - this.bottom;
  }
  acrossPx(): number {
    return this.orientation === 'horizontal'
      ? this.h - this.top - this.bottom
      : this.w - this.left - this.right;
  }

  stage(id: StageId): { u0: number; u1: number } {
    return STAGES.find((s) => s.id === id)!;
  }

  /** v range of lane `i` of `n`. */
  lane(i: number, n: number): [number, number] {
    const h = LANES_END / Math.max(1, n);
    const gap = Math.min(h * 0.15, 0.01);
    return [i * h + gap / 2, (i + 1) * h - gap / 2];
  }
}

export type HitKind = 'app' | 'skb' | 'packet' | 'qdisc' | 'ring' | 'wire' | 'rx' | 'acks';

/** Things drawn, for hit testing: parallel arrays, reused between frames. */
export class Hits {
  n = 0;
  x = new Float32Array(1024);
  y = new Float32Array(1024);
  w = new Float32Array(1024);
  h = new Float32Array(1024);
  kind: HitKind[] = [];
  index = new Int32Array(1024);

  clear(): void {
    this.n = 0;
  }

  add(r: Rect, kind: HitKind, index: number): void {
    if (this.n === this.x.length) this.grow();
    const i = this.n++;
    this.x[i] = r.x;
    this.y[i] = r.y;
    this.w[i] = r.w;
    this.h[i] = r.h;
    this.kind[i] = kind;
    this.index[i] = index;
  }

  /** The last-drawn thing under (px, py): small things drawn late win. */
  at(px: number, py: number): { kind: HitKind; index: number } | null {
    for (let i = this.n - 1; i >= 0; i--) {
      if (
        px >= this.x[i]! - 1 &&
        px <= this.x[i]! + this.w[i]! + 1 &&
        py >= this.y[i]! - 1 &&
        py <= this.y[i]! + this.h[i]! + 1
      ) {
        return { kind: this.kind[i]!, index: this.index[i]! };
      }
    }
    return null;
  }

  private grow(): void {
    const n = this.x.length * 2;
    const g = (a: Float32Array) => {
      const b = new Float32Array(n);
      b.set(a);
      return b;
    };
    this.x = g(this.x);
    this.y = g(this.y);
    this.w = g(this.w);
    this.h = g(this.h);
    const idx = new Int32Array(n);
    idx.set(this.index);
    this.index = idx;
  }
}

/** A hit list that records nothing (frames nobody points at). */
class NoHits extends Hits {
  override clear(): void {}
  override add(): void {}
}
export const NO_HITS: Hits = new NoHits();

export interface DrawOptions {
  reducedMotion: boolean;
  /** Index of the selected skb, -1 none. */
  selectedSkb: number;
  gates: readonly string[];
  /** Words drawn on a recording's stages (from the messages). */
  labels: { notRecorded: string; inferred: string };
}

/** The colour of an skb in `state`. */
export function skbColor(p: Palette, gates: readonly string[], state: number): string {
  if (state >= SKB_HELD) return p.held[gates[state - SKB_HELD] ?? ''] ?? p.heldOther;
  if (state === SKB_AUTOCORKED) return p.autocork;
  if (state === SKB_SENT) return p.sent;
  if (state === SKB_FULL) return p.full;
  return p.filling;
}

export function drawScene(
  g: CanvasRenderingContext2D,
  geo: Geometry,
  scene: Scene,
  ctx: SceneContext,
  pal: Palette,
  opt: DrawOptions,
  hits: Hits,
): void {
  const m = ctx.model;
  const P = m.packets;
  const t = scene.t;
  const nLanes = Math.max(1, ctx.lanes.length);
  hits.clear();
  g.clearRect(0, 0, geo.w, geo.h);

  // Stage backgrounds.
  g.fillStyle = pal.stage;
  for (const s of STAGES) {
    const r = geo.rect(s.u0, s.u1, 0, 1);
    g.fillRect(r.x, r.y, r.w, r.h);
  }
  // A recording: stages it does not show are hatched and say so, never filled in.
  const rec = ctx.model.recording;
  if (rec) {
    const hatch = (r: Rect, label: string) => {
      g.save();
      g.beginPath();
      g.rect(r.x, r.y, r.w, r.h);
      g.clip();
      g.strokeStyle = pal.grid;
      g.lineWidth = 1;
      g.beginPath();
      for (let d = -r.h; d < r.w; d += 9) {
        g.moveTo(r.x + d, r.y + r.h);
        g.lineTo(r.x + d + r.h, r.y);
      }
      g.stroke();
      g.fillStyle = pal.muted;
      g.font = '10px system-ui, sans-serif';
      g.textBaseline = 'bottom';
      g.fillText(label, r.x + 3, r.y + r.h - 3, Math.max(10, r.w - 6));
      g.restore();
    };
    for (const st of STAGES) {
      const info = rec.stages[st.id];
      if (info.recorded) continue;
      const inferred = info.reason.startsWith('inferred') || st.id === 'wire';
      hatch(
        geo.rect(st.u0, st.u1, 0, LANES_END),
        inferred ? opt.labels.inferred : opt.labels.notRecorded,
      );
    }
    if (!rec.stages.acks.recorded) hatch(geo.rect(0, 1, ACKS_START, 1), opt.labels.notRecorded);
  }
  // The return strip.
  g.strokeStyle = pal.grid;
  g.lineWidth = 1 * pal.stroke;
  {
    const a = geo.rect(0, 1, (LANES_END + ACKS_START) / 2, (LANES_END + ACKS_START) / 2);
    g.beginPath();
    g.moveTo(a.x, a.y);
    g.lineTo(a.x + a.w, a.y + a.h);
    g.stroke();
  }
  const flow = (lane: number) => pal.flows[(lane < 0 ? 0 : lane) % pal.flows.length]!;
  const laneOfPkt = (p: number) => {
    const sk = P.sk[p]!;
    return sk >= 0 ? (ctx.laneOfSk[sk] ?? -1) : -1;
  };

  // ---- applications ----
  const app = geo.stage('app');
  g.font = `${pal.fontPx}px system-ui, sans-serif`;
  g.textBaseline = 'middle';
  ctx.lanes.forEach((lane, i) => {
    const [v0, v1] = geo.lane(i, nLanes);
    const r = geo.rect(app.u0, app.u1, v0, v1);
    const st = scene.app[i]!;
    g.fillStyle = st >= APP_SLEEPING ? pal.sleeping : st === APP_WRITING ? pal.writing : pal.idle;
    g.fillRect(r.x, r.y, r.w, r.h);
    hits.add(r, 'app', i);
    if (r.h >= 11 && r.w >= 22) {
      g.fillStyle = '#fff';
      g.fillText(`sk${lane.sk}`, r.x + 3, r.y + r.h / 2);
    }
  });

  // ---- write queues ----
  const wq = geo.stage('wq');
  ctx.lanes.forEach((_, i) => {
    const [v0, v1] = geo.lane(i, nLanes);
    const list = scene.skbs[i]!;
    if (list.length === 0) return;
    const lenPx = (wq.u1 - wq.u0) * geo.alongPx();
    const thickPx = (v1 - v0) * geo.acrossPx();
    const ideal = Math.max(thickPx * 1.4, 6);
    const blockPx = Math.max(1, Math.min(ideal, lenPx / list.length));
    const fit = Math.min(list.length, Math.floor(lenPx / blockPx));
    const du = blockPx / geo.alongPx();
    const gap = blockPx > 5 ? 1 / geo.alongPx() : 0;
    // Head of the queue (lowest sequence) nearest the qdisc.
    for (let k = 0; k < fit; k++) {
      const s = list[k]!;
      const { state, len } = skbStateAt(m, s, t);
      const goal = m.skbs.sizeGoal[s]! || len || 1;
      const u1 = wq.u1 - k * du;
      const u0 = u1 - du + gap;
      const full = geo.rect(u0, u1, v0, v1);
      const frac = Math.min(1, len / goal);
      const color = skbColor(pal, opt.gates, state);
      if (state === SKB_SENT) {
        g.strokeStyle = color;
        g.strokeRect(full.x + 0.5, full.y + 0.5, Math.max(0, full.w - 1), Math.max(0, full.h - 1));
      } else {
        g.globalAlpha = 0.25;
        g.fillStyle = color;
        g.fillRect(full.x, full.y, full.w, full.h);
        g.globalAlpha = 1;
        // Fill toward size_goal: from the head side across the block.
        const fr =
          geo.orientation === 'horizontal'
            ? geo.rect(u0, u1, v1 - (v1 - v0) * frac, v1)
            : geo.rect(u0, u1, v0, v0 + (v1 - v0) * frac);
        g.fillStyle = color;
        g.fillRect(fr.x, fr.y, fr.w, fr.h);
      }
      if (s === opt.selectedSkb) {
        g.strokeStyle = pal.select;
        g.lineWidth = 2 * pal.stroke;
        g.strokeRect(full.x - 1, full.y - 1, full.w + 2, full.h + 2);
        g.lineWidth = 1 * pal.stroke;
      }
      hits.add(full, 'skb', s);
    }
  });

  // ---- qdisc ----
  const qd = geo.stage('qdisc');
  // Thousands of packets: batched by colour, one path and one fill per colour and stage.
  const batch = new Batch();
  let alpha = 1;
  const packetBox = (p: number, r: Rect) => {
    batch.add(P.type[p] === PKT_ACK ? pal.ack : flow(laneOfPkt(p)), alpha, r);
    hits.add(r, 'packet', p);
  };
  hits.add(geo.rect(qd.u0, qd.u1, 0, LANES_END), 'qdisc', 0);
  if (ctx.perFlowQdisc) {
    const perLane: number[][] = ctx.lanes.map(() => []);
    for (const p of scene.qdisc) {
      const l = laneOfPkt(p);
      if (l >= 0) perLane[l]!.push(p);
    }
    perLane.forEach((list, i) => {
      const [v0, v1] = geo.lane(i, nLanes);
      queueLine(geo, list, qd.u0, qd.u1, v0, v1, packetBox);
      const until = scene.throttledUntil[i];
      if (until !== null && until! > t) {
        const r = geo.rect(qd.u0, qd.u1, v0, v1);
        g.strokeStyle = pal.held.pacing ?? pal.heldOther;
        g.setLineDash([3, 3]);
        g.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
        g.setLineDash([]);
      }
    });
  } else {
    grid(geo, scene.qdisc, scene.qdisc.length, qd.u0, qd.u1, 0, LANES_END, (k, r) =>
      packetBox(scene.qdisc[k]!, r),
    );
  }

  batch.flush(g);

  // ---- NIC TX ring and BQL ----
  const ring = geo.stage('ring');
  const slots = Math.max(scene.dev.ringSize, scene.ring.length, 1);
  hits.add(geo.rect(ring.u0, ring.u1, 0, LANES_END), 'ring', 0);
  grid(geo, scene.ring, slots, ring.u0, ring.u1, 0, LANES_END * 0.9, (k, r) => {
    const p = scene.ring[k];
    if (p === undefined) {
      g.strokeStyle = pal.grid;
      if (r.w >= 4) g.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
      return;
    }
    alpha = P.tWire[p]! <= t ? 0.35 : 1;
    packetBox(p, r);
    alpha = 1;
  });
  batch.flush(g);
  {
    // BQL: bytes in flight in the driver against the dql limit.
    const r = geo.rect(ring.u0, ring.u1, LANES_END * 0.93, LANES_END);
    g.strokeStyle = scene.dev.stopped >= 0 ? pal.stopped : pal.grid;
    g.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    const limit = scene.dev.bqlLimit;
    if (limit > 0) {
      const frac = Math.min(1, scene.dev.bqlInflight / limit);
      const fr =
        geo.orientation === 'horizontal' ? { ...r, w: r.w * frac } : { ...r, h: r.h * frac };
      g.fillStyle = scene.dev.stopped >= 0 ? pal.stopped : pal.muted;
      g.fillRect(fr.x, fr.y, fr.w, fr.h);
    }
  }

  // ---- wire ----
  const wire = geo.stage('wire');
  hits.add(geo.rect(wire.u0, wire.u1, 0, LANES_END), 'wire', 0);
  const wireLen = wire.u1 - wire.u0;
  g.textBaseline = 'middle';
  const labels: SegLabel[] = [];
  const scratch: Rect = { x: 0, y: 0, w: 0, h: 0 };
  for (const p of scene.wire) {
    const t0 = P.tWire[p]!;
    const t1 = P.tRx[p]!;
    const span = Number.isFinite(t1) && t1 > t0 ? t1 - t0 : 1;
    const head = Math.min(1, (t - t0) / span);
    const ser = Number.isFinite(P.tWireEnd[p]!) ? (P.tWireEnd[p]! - t0) / span : 0.02;
    const tail = Math.max(0, head - Math.max(ser, 0.015));
    const lane = laneOfPkt(p);
    const [v0, v1] = lane >= 0 ? geo.lane(lane, nLanes) : [0, LANES_END];
    const mid = (v0 + v1) / 2;
    const half = Math.min((v1 - v0) / 2, 0.02 + 0.01 * Math.log2(P.segs[p]! + 1));
    const r = geo.rectInto(
      scratch,
      wire.u0 + tail * wireLen,
      wire.u0 + head * wireLen,
      mid - half,
      mid + half,
    );
    if (r.w < 2 && geo.orientation === 'horizontal') r.w = 2;
    if (r.h < 2 && geo.orientation === 'vertical') r.h = 2;
    packetBox(p, r);
    if (P.segs[p]! > 1) {
      const text = `×${P.segs[p]}`;
      const colour = P.type[p] === PKT_ACK ? pal.ack : flow(laneOfPkt(p));
      labels.push({
        text,
        x: r.x + 2,
        y: r.y + r.h / 2,
        w: g.measureText(text).width,
        box: { ...r },
        colour,
      });
    }
  }
  batch.flush(g);
  for (const l of fitLabels(labels, pal.fontPx, geo.orientation)) {
    g.fillStyle = lightColour(l.colour) ? '#111111' : '#ffffff';
    g.fillText(l.text, l.x, l.y);
  }

  // ---- receiver ----
  const rx = geo.stage('rx');
  ctx.lanes.forEach((lane, i) => {
    const [v0, v1] = geo.lane(i, nLanes);
    const r = geo.rect(rx.u0, rx.u1, v0, v1);
    g.strokeStyle = pal.grid;
    g.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
    hits.add(r, 'rx', i);
    const due = scene.delack[i];
    if (due !== null && due !== undefined) {
      // The delayed-ACK timer: a bar that empties as the timer runs down.
      const d = lastDelackSpan(ctx, lane.peer, t);
      const frac = d > 0 ? Math.max(0, Math.min(1, (due - t) / d)) : 1;
      g.fillStyle = pal.delack;
      g.globalAlpha = 0.7;
      const bar =
        geo.orientation === 'horizontal' ? { ...r, w: r.w * frac } : { ...r, h: r.h * frac };
      g.fillRect(bar.x, bar.y, bar.w, bar.h);
      g.globalAlpha = 1;
    }
  });

  // ---- ACKs and other packets of the peer, coming back ----
  hits.add(geo.rect(0, 1, ACKS_START, 1), 'acks', 0);
  for (const p of scene.back) {
    const onWire = P.tWire[p]! <= t && !(P.tRx[p]! <= t);
    let u: number;
    if (onWire) {
      const span = P.tRx[p]! > P.tWire[p]! ? P.tRx[p]! - P.tWire[p]! : 1;
      const prog = Math.min(1, (t - P.tWire[p]!) / span);
      u = wire.u1 - prog * wireLen;
    } else {
      u = rx.u0 + (rx.u1 - rx.u0) * 0.3; // still in the peer's qdisc or ring
    }
    packetBox(p, geo.rectInto(scratch, u - 0.006, u + 0.006, ACKS_START + 0.02, 0.98));
  }

  batch.flush(g);

  // ---- what just happened ----
  for (const pu of scene.pulses) {
    const fade = opt.reducedMotion ? 0.6 : Math.max(0, 1 - pu.age);
    if (fade <= 0) continue;
    g.globalAlpha = fade;
    if (pu.kind === 'completion') {
      const r = geo.rect(ring.u0, ring.u1, 0, LANES_END);
      const cx = r.x + r.w / 2;
      const cy = r.y + r.h / 2;
      const rad = opt.reducedMotion ? 8 : 4 + pu.age * Math.min(r.w, r.h) * 0.45;
      g.strokeStyle = pal.pulse;
      g.lineWidth = 2 * pal.stroke;
      g.beginPath();
      g.arc(cx, cy, rad, 0, Math.PI * 2);
      g.stroke();
      g.lineWidth = 1 * pal.stroke;
    } else if (pu.kind === 'tsq' && pu.lane >= 0) {
      const [v0, v1] = geo.lane(pu.lane, nLanes);
      const a = geo.rect(ring.u0, ring.u0, (v0 + v1) / 2, (v0 + v1) / 2);
      const b = geo.rect(wq.u1, wq.u1, (v0 + v1) / 2, (v0 + v1) / 2);
      g.strokeStyle = pal.tsq;
      g.lineWidth = 2 * pal.stroke;
      g.beginPath();
      g.moveTo(a.x, a.y);
      g.lineTo(b.x, b.y);
      g.stroke();
      g.lineWidth = 1 * pal.stroke;
    } else if (pu.lane >= 0 && (pu.kind === 'drop_qdisc' || pu.kind === 'drop_path')) {
      // Where the packet died: a cross on the lane, in the qdisc or on the wire (the path's
      // router sits between the hosts).
      const [v0, v1] = geo.lane(pu.lane, nLanes);
      const where = pu.kind === 'drop_qdisc' ? qd : wire;
      const r = geo.rect(where.u0, where.u1, v0, v1);
      const half = Math.max(3, Math.min(9, Math.min(r.w, r.h) / 3));
      const cx = r.x + r.w / 2;
      const cy = r.y + r.h / 2;
      g.beginPath();
      g.moveTo(cx - half, cy - half);
      g.lineTo(cx + half, cy + half);
      g.moveTo(cx + half, cy - half);
      g.lineTo(cx - half, cy + half);
      // A halo in the stage's colour first, so the cross shows on packets as on the empty stage.
      g.strokeStyle = pal.stage;
      g.lineWidth = 5 * pal.stroke;
      g.stroke();
      g.strokeStyle = pal.drop;
      g.lineWidth = 2.5 * pal.stroke;
      g.stroke();
      g.lineWidth = 1 * pal.stroke;
    } else if (pu.lane >= 0 && pu.kind === 'retransmit') {
      // The socket sends a segment again: the write queue outlined, dashed, in the same colour.
      const [v0, v1] = geo.lane(pu.lane, nLanes);
      const r = geo.rect(wq.u0, wq.u1, v0, v1);
      g.strokeStyle = pal.drop;
      g.lineWidth = 2 * pal.stroke;
      g.setLineDash([4, 3]);
      g.strokeRect(r.x - 1, r.y - 1, r.w + 2, r.h + 2);
      g.setLineDash([]);
      g.lineWidth = 1 * pal.stroke;
    } else if (
      pu.lane >= 0 &&
      (pu.kind === 'autocork' || pu.kind === 'hold' || pu.kind === 'throttle')
    ) {
      // A decision about the lane's tail skb: outline the write queue in the decision's colour.
      const [v0, v1] = geo.lane(pu.lane, nLanes);
      const r = geo.rect(wq.u0, wq.u1, v0, v1);
      g.strokeStyle =
        pu.kind === 'autocork'
          ? pal.autocork
          : pu.kind === 'hold'
            ? pal.heldOther
            : (pal.held.pacing ?? pal.heldOther);
      g.lineWidth = 2 * pal.stroke;
      g.strokeRect(r.x - 1, r.y - 1, r.w + 2, r.h + 2);
      g.lineWidth = 1 * pal.stroke;
    } else if (pu.lane >= 0 && pu.kind !== 'xmit') {
      // A send(), a segment received, an ACK sent or received: a dot on the lane's stage.
      const [v0, v1] = geo.lane(pu.lane, nLanes);
      const where = pu.kind === 'send' || pu.kind === 'ack_rcvd' ? app : rx;
      const r = geo.rect(where.u0, where.u1, v0, v1);
      const dot = Math.max(2, Math.min(5, Math.min(r.w, r.h) / 5));
      g.fillStyle = pu.kind === 'ack_rcvd' || pu.kind === 'ack_sent' ? pal.ack : pal.pulse;
      const cx =
        pu.kind === 'ack_rcvd' || pu.kind === 'ack_sent' ? r.x + r.w - dot - 2 : r.x + r.w / 2;
      g.beginPath();
      g.arc(cx, r.y + dot + 2, dot, 0, Math.PI * 2);
      g.fill();
    }
    g.globalAlpha = 1;
  }
}

/** Packets queued one after the other along a lane, head at u1. */
function queueLine(
  geo: Geometry,
  list: number[],
  u0: number,
  u1: number,
  v0: number,
  v1: number,
  paint: (p: number, r: Rect) => void,
): void {
  if (list.length === 0) return;
  const lenPx = (u1 - u0) * geo.alongPx();
  const thick = (v1 - v0) * geo.acrossPx();
  const cell = Math.max(1, Math.min(thick, 8, lenPx / list.length));
  const du = cell / geo.alongPx();
  const fit = Math.min(list.length, Math.floor(lenPx / cell));
  const gap = cell > 4 ? 1 / geo.alongPx() : 0;
  for (let k = 0; k < fit; k++) {
    const b = u1 - k * du;
    paint(list[k]!, geo.rect(b - du + gap, b, v0, v1));
  }
}

/**
 * `slots` cells laid out in a grid over (u0..u1) x (v0..v1), filled column by column from the
 * head (u1); `paint(k, rect)` paints cell k (k < items.length holds an item).
 */
function grid(
  geo: Geometry,
  _items: number[],
  slots: number,
  u0: number,
  u1: number,
  v0: number,
  v1: number,
  paint: (k: number, r: Rect) => void,
): void {
  if (slots === 0) return;
  const L = (u1 - u0) * geo.alongPx();
  const T = (v1 - v0) * geo.acrossPx();
  let cell = Math.floor(Math.sqrt((L * T) / slots));
  cell = Math.max(1, Math.min(cell, 14));
  const perCol = Math.max(1, Math.floor(T / cell));
  const cols = Math.ceil(slots / perCol);
  const usedL = Math.min(L, cols * cell);
  const duCell = cell / geo.alongPx();
  const dvCell = cell / geo.acrossPx();
  const gap = cell > 4 ? 1 : 0;
  const start = u1 - (L - usedL) / 2 / geo.alongPx();
  for (let k = 0; k < slots; k++) {
    const col = Math.floor(k / perCol);
    const row = k % perCol;
    const b = start - col * duCell;
    if (b - duCell < u0 - 1e-9) break;
    const r = geo.rect(b - duCell, b, v0 + row * dvCell, v0 + (row + 1) * dvCell);
    r.w -= gap;
    r.h -= gap;
    paint(k, r);
  }
}

/** Length of the delayed-ACK wait that is pending at `t` on socket `sk` (ns). */
function lastDelackSpan(ctx: SceneContext, sk: number, t: number): number {
  const d = ctx.model.socks.delack;
  const a = d.off[sk] ?? 0;
  const b = d.off[sk + 1] ?? 0;
  let best = -1;
  for (let j = b - 1; j >= a; j--) {
    if (d.t[j]! <= t) {
      best = j;
      break;
    }
  }
  return best >= 0 ? d.v[best * 2 + 1]! - d.t[best]! : 0;
}

/**
 * Rectangles to fill, grouped by colour and opacity: one path and one fill per group. A rectangle
 * that overlaps or touches the group's last one along one axis and has the same extent across it
 * (packets following each other on the wire, ACKs in their strip) is merged into it: a path of
 * overlapping rectangles fills their union, so the picture is the same, but the rasteriser sees
 * one rectangle where ten thousand packets may overlap in a few hundred pixels.
 */
export class Batch {
  private groups = new Map<string, { color: string; alpha: number; rects: number[] }>();

  private last: { color: string; alpha: number; rects: number[] } | null = null;

  add(color: string, alpha: number, r: Rect): void {
    let gr = this.last;
    if (gr === null || gr.color !== color || gr.alpha !== alpha) {
      const key = alpha === 1 ? color : `${color}|${alpha}`;
      gr = this.groups.get(key) ?? null;
      if (!gr) {
        gr = { color, alpha, rects: [] };
        this.groups.set(key, gr);
      }
      this.last = gr;
    }
    const a = gr.rects;
    const n = a.length;
    if (n > 0) {
      const x = a[n - 4]!;
      const y = a[n - 3]!;
      const w = a[n - 2]!;
      const h = a[n - 1]!;
      if (y === r.y && h === r.h && r.x <= x + w && x <= r.x + r.w) {
        const x0 = Math.min(x, r.x);
        a[n - 4] = x0;
        a[n - 2] = Math.max(x + w, r.x + r.w) - x0;
        return;
      }
      if (x === r.x && w === r.w && r.y <= y + h && y <= r.y + r.h) {
        const y0 = Math.min(y, r.y);
        a[n - 3] = y0;
        a[n - 1] = Math.max(y + h, r.y + r.h) - y0;
        return;
      }
    }
    a.push(r.x, r.y, r.w, r.h);
  }

  /** Rectangles queued in all groups (after merging). */
  get size(): number {
    let n = 0;
    for (const gr of this.groups.values()) n += gr.rects.length / 4;
    return n;
  }

  flush(g: CanvasRenderingContext2D): void {
    for (const gr of this.groups.values()) {
      g.globalAlpha = gr.alpha;
      g.fillStyle = gr.color;
      g.beginPath();
      const a = gr.rects;
      for (let i = 0; i < a.length; i += 4) g.rect(a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!);
      g.fill();
    }
    g.globalAlpha = 1;
    this.groups.clear();
    this.last = null;
  }
}

/** A packet's segment count (`×45`) to write on it, with its packet's box. */
export interface SegLabel {
  text: string;
  /** Where the text starts (left, vertical middle), CSS px. */
  x: number;
  y: number;
  /** The text's width, px. */
  w: number;
  box: Rect;
  /** The packet's colour (the text is dark on a light one, white on a dark one). */
  colour: string;
}

/**
 * The labels to write: each inside its own packet (along the path; across a vertical
 * pipeline's packet it needs the text's height), and none over a label already written, so two
 * packets close together never read "×45×45".
 */
export function fitLabels(
  labels: readonly SegLabel[],
  fontPx: number,
  orientation: Orientation,
): SegLabel[] {
  const kept: SegLabel[] = [];
  const h = fontPx * 1.1;
  for (const l of labels) {
    const fits =
      orientation === 'horizontal'
        ? l.w + 4 <= l.box.w && h <= l.box.h + 2
        : l.w + 4 <= l.box.w && h + 2 <= l.box.h;
    if (!fits) continue;
    const clear = kept.every(
      (k) =>
        l.x + l.w <= k.x ||
        k.x + k.w <= l.x ||
        l.y + h / 2 <= k.y - h / 2 ||
        k.y + h / 2 <= l.y - h / 2,
    );
    if (clear) kept.push(l);
  }
  return kept;
}

/** Whether a `#rrggbb` colour is light (relative luminance above one half). */
export function lightColour(hex: string): boolean {
  const m = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return false;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(m[1]!.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!) > 0.5;
}

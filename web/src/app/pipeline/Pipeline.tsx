// The animated send path of one run: a canvas repainted every animation frame while the
// clock plays (and only while it is on screen), with an HTML overlay naming the stages that
// keyboard users can focus, and tooltips naming the kernel structure or function under the
// pointer with its values at the cursor.

import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';

import type { Side } from '../../engine/protocol';
import {
  APP_SLEEPING,
  APP_WRITING,
  PKT_ACK,
  SKB_AUTOCORKED,
  SKB_FULL,
  SKB_HELD,
  SKB_SENT,
  type RecordedStage,
} from '../../model/derive';
import { formatNs } from '../../model/format';
import { sceneAt, skbStateAt, type Scene, type SceneContext } from '../../model/scene';
import { parseSelection, serializeSelection } from '../../model/urlstate';
import { useClock, useSite, useStore } from '../context';
import { msg } from '../../i18n/messages';
import { perf } from '../perf';
import {
  ACKS_START,
  drawScene,
  Geometry,
  Hits,
  LANES_END,
  NO_HITS,
  readPalette,
  STAGES,
  type Palette,
  type HitKind,
  type Orientation,
} from './draw';

/**
 * What the end-to-end tests and the benchmark may read that a user cannot see: how many
 * frames the pipelines painted (animation pauses off screen), how many packets the last frame
 * drew, and the time spent building and painting frames (ms, summed).
 */
function countDraw(packets: number, ms: number): void {
  const w = window as unknown as {
    __sendpath?: { draws: number; packets: number; paintMs: number };
  };
  w.__sendpath ??= { draws: 0, packets: 0, paintMs: 0 };
  w.__sendpath.draws += 1;
  w.__sendpath.packets = packets;
  w.__sendpath.paintMs += ms;
}

/**
 * Below this width the pipeline reflows vertically (a phone); a projector's 1024 px screen with
 * the lesson's text beside the picture still gets the horizontal one.
 */
export const VERTICAL_BELOW_PX = 520;
/** A pulse fades over this much screen time. */
const PULSE_SCREEN_S = 0.5;

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(
    () =>
      typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches,
  );
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-reduced-motion: reduce)');
    const on = () => setReduced(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return reduced;
}

export function stateName(state: number, gates: readonly string[]): string {
  const s = msg.pipeline.states;
  if (state >= SKB_HELD) return s.held(gates[state - SKB_HELD] ?? '?');
  if (state === SKB_AUTOCORKED) return s.autocorked;
  if (state === SKB_SENT) return s.sent;
  if (state === SKB_FULL) return s.full;
  return s.filling;
}

function appStateName(state: number, gates: readonly string[]): string {
  const s = msg.pipeline.states;
  if (state >= APP_SLEEPING) return s.sleeping(gates[state - APP_SLEEPING] ?? '?');
  if (state === APP_WRITING) return s.writing;
  return s.idle;
}

/** The tooltip of a drawn thing at the scene's instant. */
export function describeHit(
  kind: HitKind,
  index: number,
  scene: Scene,
  ctx: SceneContext,
  gates: readonly string[],
  qdiscKind: string,
): string {
  const m = ctx.model;
  const P = m.packets;
  const t = scene.t;
  const tip = msg.tooltip;
  const rec = m.recording;
  if (rec && (kind === 'ring' || kind === 'wire' || kind === 'rx' || kind === 'acks')) {
    // A recording: what this stage shows of it, or why it does not.
    const stage = kind === 'acks' ? 'acks' : kind;
    const due = kind === 'rx' ? scene.delack[index] : null;
    return `${msg.native.stageTip(msg.native.stageNames[stage] ?? stage, rec.stages[stage].reason)}${
      due !== null && due !== undefined ? `. ${tip.delackPending(formatNs(due - t))}` : ''
    }`;
  }
  switch (kind) {
    case 'app': {
      const lane = ctx.lanes[index]!;
      return tip.app(lane.sk, appStateName(scene.app[index]!, gates));
    }
    case 'skb': {
      const { state, len } = skbStateAt(m, index, t);
      return tip.skb(
        m.skbs.id[index]!,
        len,
        m.skbs.sizeGoal[index]!,
        stateName(state, gates),
        m.skbs.seqStart[index]!,
        m.skbs.seqEnd[index]!,
      );
    }
    case 'packet': {
      const p = index;
      let where: string;
      if (P.tEnq[p]! <= t && !(P.tDeq[p]! <= t))
        where = `in the qdisc for ${formatNs(t - P.tEnq[p]!)} (dev_queue_xmit)`;
      else if (P.tWire[p]! <= t && !(P.tRx[p]! <= t))
        where = rec
          ? msg.native.inFlight(formatNs(t - P.tWire[p]!))
          : `on the wire for ${formatNs(t - P.tWire[p]!)} (phy)`;
      else if (P.tRing[p]! <= t && !(P.tDone[p]! <= t))
        where = `in the TX ring, waiting for its TX completion (ndo_start_xmit)`;
      else where = 'at the receiver';
      const kindText = P.type[p] === PKT_ACK ? `ACK ${P.ack[p]}` : `[${P.seq[p]}, ${P.endSeq[p]})`;
      return `${tip.packet(P.id[p]!, P.segs[p]!, P.len[p]! || 0, where)} ${kindText}`;
    }
    case 'qdisc': {
      let bytes = 0;
      for (const p of scene.qdisc) bytes += P.len[p]! || 0;
      return tip.qdisc(qdiscKind, scene.qdisc.length, bytes);
    }
    case 'ring':
      return `${tip.ring(scene.dev.ringUsed, scene.dev.ringSize, scene.dev.bqlInflight, scene.dev.bqlLimit)}. ${tip.completion}`;
    case 'wire':
      return tip.wire(scene.wire.length);
    case 'rx': {
      const lane = ctx.lanes[index]!;
      const due = scene.delack[index];
      return tip.rx(
        lane.peer,
        due !== null && due !== undefined ? tip.delackPending(formatNs(due - t)) : tip.delackNone,
      );
    }
    case 'acks':
      return tip.acks(scene.back.length);
  }
}

/** How far a lesson's ring reaches out of its stage: `.lesson-highlight`'s outline width and offset. */
const HIGHLIGHT_RING_PX = 4 + 3;

/**
 * `highlight`: stage ids (`app`, `wq`, `qdisc`, `ring`, `wire`, `rx`, `acks`) a lesson step
 * outlines. `fill`: the picture takes the height its box gets from the stylesheet (presenter
 * mode sizes it to the screen) instead of a height from its width and lanes.
 */
export function Pipeline({
  side,
  highlight = [],
  fill = false,
}: {
  side: Side;
  highlight?: readonly string[];
  fill?: boolean;
}) {
  const site = useSite();
  const store = useStore();
  const clock = useClock();
  const view = site[side];
  const catalog = site.catalog;
  const ctx = view?.ctx ?? null;
  const gates = useMemo(() => catalog?.trace.gates ?? [], [catalog]);
  const wrapRef = useRef<HTMLDivElement>(null);
  const labelsRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // Made once (a `useRef(new Hits())` would build and drop its arrays on every render).
  const [hits] = useState(() => new Hits());
  const palette = useRef<{ at: number; theme: string; colours: Palette } | null>(null);
  /** Whether `hits` holds the last frame painted; whether the pointer is over the picture. */
  const hitsFresh = useRef(false);
  const pointerOver = useRef(false);
  const visible = useRef(true);
  const frame = useRef<number | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  const [size, setSize] = useState({ w: 800, h: 320 });
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  const [focusTip, setFocusTip] = useState<string>('');
  const tipId = useId();
  const orientation: Orientation = size.w < VERTICAL_BELOW_PX ? 'vertical' : 'horizontal';
  // The stage names' strip: as tall (horizontal) or wide (vertical) as the names need once laid
  // out, so that a name that wraps to two lines still never reaches into the lanes.
  const [labelPx, setLabelPx] = useState<number | null>(null);
  const geo = useMemo(
    () => new Geometry(size.w, size.h, orientation, labelPx ?? undefined),
    [size, orientation, labelPx],
  );
  const selection = parseSelection(site.state.sel);
  const selId = selection?.kind === 'skb' ? selection.id : -1;
  const selectedSkb = useMemo(() => {
    if (!ctx || selId < 0) return -1;
    const s = ctx.model.skbs;
    for (let i = 0; i < s.n; i++) if (s.id[i] === selId) return i;
    return -1;
  }, [ctx, selId]);
  const qdiscKind = ctx ? (ctx.loopback ? 'noqueue' : ctx.perFlowQdisc ? 'fq' : 'pfifo_fast') : '';
  const theme = site.state.theme;

  /**
   * Paints the scene at the cursor. What was drawn where (for the pointer) is recorded for a
   * still picture, and while playing only when the pointer is over the picture (or asks:
   * `record`): ten thousand packets a frame that nobody points at need no hit list.
   */
  const draw = useCallback(
    (record: boolean) => {
      const canvas = canvasRef.current;
      if (!canvas || !ctx || !visible.current) return;
      const g = canvas.getContext('2d');
      if (!g) return;
      const dpr = window.devicePixelRatio || 1;
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      const started = performance.now();
      const recording = record || !clock.playing || pointerOver.current;
      const scene = sceneAt(ctx, clock.t, Math.max(1, clock.speed * PULSE_SCREEN_S));
      // The stylesheet's colours: read for every still picture, and at most twice a second while
      // playing (reading them is a style recalculation, each frame).
      let pal = palette.current;
      if (!pal || !clock.playing || pal.theme !== theme || started - pal.at > 500) {
        pal = { at: started, theme, colours: readPalette(canvas) };
        palette.current = pal;
      }
      drawScene(
        g,
        geo,
        scene,
        ctx,
        pal.colours,
        {
          reducedMotion,
          selectedSkb,
          gates,
          labels: { notRecorded: msg.native.hatch, inferred: msg.native.hatchInferred },
        },
        recording ? hits : NO_HITS,
      );
      hitsFresh.current = recording;
      countDraw(
        scene.qdisc.length + scene.ring.length + scene.wire.length + scene.back.length,
        performance.now() - started,
      );
      perf.pipelinePainted();
    },
    [ctx, geo, clock, reducedMotion, selectedSkb, gates, hits, theme],
  );

  const paint = useCallback(() => {
    frame.current = null;
    draw(false);
  }, [draw]);

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);

  // Size: the box's width; the box's height when filling it, else taller when vertical.
  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      const w = Math.max(280, Math.floor(el.clientWidth));
      const lanes = ctx?.lanes.length ?? 4;
      const h = fill
        ? Math.max(200, Math.floor(el.clientHeight))
        : w < VERTICAL_BELOW_PX
          ? Math.max(520, Math.min(900, w * 1.6))
          : Math.max(240, Math.min(440, 150 + lanes * 60, Math.round(w * 0.36)));
      setSize((s) => (s.w === w && s.h === h ? s : { w, h }));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ctx, fill]);

  // The names' strip follows the names as laid out (their wrapping depends on the width and the
  // words only, so this settles in one pass).
  const stageNames = msg.pipeline.stages;
  useLayoutEffect(() => {
    const box = labelsRef.current;
    if (!box) return;
    let need = 0;
    for (const el of box.querySelectorAll<HTMLElement>('.stage-label:not(.acks-label)'))
      need = Math.max(need, orientation === 'horizontal' ? el.offsetHeight : el.offsetWidth);
    // A lesson's ring around a stage reaches HIGHLIGHT_RING_PX out of the lanes: past the names'
    // strip too, or it lies over the names.
    const px = Math.ceil(need) + 4 + (highlight.length > 0 ? HIGHLIGHT_RING_PX : 0);
    setLabelPx((cur) => (cur !== null && Math.abs(cur - px) <= 1 ? cur : px));
  }, [orientation, size, stageNames, highlight.length]);

  // Paused off screen: no painting while the canvas is not visible.
  useEffect(() => {
    const el = canvasRef.current;
    if (!el || typeof IntersectionObserver !== 'function') return;
    const io = new IntersectionObserver((entries) => {
      visible.current = entries.some((e) => e.isIntersecting);
      if (visible.current) schedule();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [schedule]);

  useEffect(() => clock.subscribe(schedule), [clock, schedule]);
  useEffect(() => {
    schedule();
  }, [schedule, size, theme]);
  // The cleanup forgets the cancelled frame: React's StrictMode (the dev server, `npm start`)
  // unmounts and remounts every component once, and a stale id here would make `schedule` believe
  // a frame is pending forever, so the canvas would never paint.
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    },
    [],
  );

  const hitAt = (e: React.PointerEvent | React.MouseEvent) => {
    const r = canvasRef.current?.getBoundingClientRect();
    if (!r) return null;
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    // Playing with the pointer elsewhere until now: the frame on screen, with its hit list.
    if (!hitsFresh.current) draw(true);
    return { x, y, hit: hits.at(x, y) };
  };

  const onMove = (e: React.PointerEvent) => {
    pointerOver.current = true;
    if (!ctx) return;
    const h = hitAt(e);
    if (!h?.hit) {
      setTip(null);
      return;
    }
    const scene = sceneAt(ctx, clock.t, 1);
    setTip({
      x: h.x,
      y: h.y,
      text: describeHit(h.hit.kind, h.hit.index, scene, ctx, gates, qdiscKind),
    });
  };

  const onClick = (e: React.MouseEvent) => {
    if (!ctx) return;
    const h = hitAt(e);
    if (h?.hit?.kind === 'skb') {
      store.setView({
        sel: serializeSelection({ kind: 'skb', id: ctx.model.skbs.id[h.hit.index]! }),
      });
    } else if (h?.hit?.kind === 'packet') {
      const p = h.hit.index;
      const skbId = ctx.model.packets.skb[p]!;
      if (Number.isFinite(skbId))
        store.setView({ sel: serializeSelection({ kind: 'skb', id: skbId }) });
    }
  };

  const stageTip = (kind: HitKind, stage: RecordedStage) => {
    if (!ctx) return '';
    const rec = ctx.model.recording;
    // A recording: what the stage shows, or why it does not.
    if (rec)
      return msg.native.stageTip(msg.native.stageNames[stage] ?? stage, rec.stages[stage].reason);
    const scene = sceneAt(ctx, clock.t, 1);
    if (kind === 'app' || kind === 'rx') {
      return ctx.lanes.map((_, i) => describeHit(kind, i, scene, ctx, gates, qdiscKind)).join('; ');
    }
    if (kind === 'skb') {
      const n = scene.skbs.reduce((a, l) => a + l.length, 0);
      return `${msg.pipeline.stages.wq}: ${n} skbs. ${msg.pipeline.selectHint}`;
    }
    return describeHit(kind, 0, scene, ctx, gates, qdiscKind);
  };

  const stageKinds: Record<string, HitKind> = {
    app: 'app',
    wq: 'skb',
    qdisc: 'qdisc',
    ring: 'ring',
    wire: 'wire',
    rx: 'rx',
  };
  const label = msg.run.sideLabel(side);
  const lanesTotal = ctx
    ? ctx.model.summary.result.sockets.filter((_, i) => ctx.model.socks.sends[i] === 1).length
    : 0;

  return (
    <div
      className={`pipeline ${fill ? 'fill' : ''}`}
      ref={wrapRef}
      data-testid={`pipeline-${side}`}
      data-orientation={orientation}
      data-lanes={(() => {
        // Where the lanes are (CSS px in the canvas): the end-to-end tests check that no name
        // is laid over them.
        const r = geo.rect(0, 1, 0, LANES_END);
        return [r.x, r.y, r.w, r.h].map(Math.round).join(' ');
      })()}
    >
      <canvas
        ref={canvasRef}
        width={Math.round(
          size.w * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1),
        )}
        height={Math.round(
          size.h * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1),
        )}
        style={{ width: size.w, height: size.h }}
        role="img"
        aria-label={msg.pipeline.canvasLabel(label)}
        onPointerMove={onMove}
        onPointerLeave={() => {
          pointerOver.current = false;
          setTip(null);
        }}
        onClick={onClick}
      />
      <div className="pipeline-overlay" style={{ width: size.w, height: size.h }}>
        {highlight.map((id) => {
          const st = STAGES.find((s) => s.id === id);
          const r = st
            ? geo.rect(st.u0, st.u1, 0, LANES_END)
            : id === 'acks'
              ? geo.rect(0, 1, ACKS_START, 1)
              : null;
          return (
            r && (
              <div
                key={`hl-${id}`}
                className="lesson-highlight stage-highlight"
                data-testid={`highlight-${id}`}
                aria-hidden="true"
                style={{ left: r.x, top: r.y, width: r.w, height: r.h }}
              />
            )
          );
        })}
        <div ref={labelsRef}>
          {STAGES.map((s, i) => {
            // A name may use the gap to the next stage.
            const next = STAGES[i + 1];
            const r = geo.rect(s.u0, next ? next.u0 : s.u1, 0, 0);
            const style =
              orientation === 'horizontal'
                ? { left: r.x, top: 0, width: r.w }
                : { left: 0, top: r.y, height: r.h };
            return (
              <button
                key={s.id}
                type="button"
                className={`stage-label ${orientation}`}
                data-stage={s.id}
                style={style}
                aria-describedby={tipId}
                onFocus={() => setFocusTip(stageTip(stageKinds[s.id]!, s.id))}
                onMouseEnter={() => setFocusTip(stageTip(stageKinds[s.id]!, s.id))}
                onBlur={() => setFocusTip('')}
              >
                {stageNames[s.id]}
              </button>
            );
          })}
          {(() => {
            // Horizontal: at the start of the ACKs' strip, below every lane. Vertical: in the
            // right-hand gutter beside the ACKs' column, past a lesson's ring around it.
            const r = geo.rect(0, 0.2, ACKS_START, 1);
            const ring = highlight.length > 0 ? HIGHLIGHT_RING_PX : 0;
            const style =
              orientation === 'horizontal'
                ? { left: r.x, top: r.y, maxHeight: r.h }
                : { left: geo.w - geo.right + ring, top: r.y, height: r.h };
            return (
              <button
                type="button"
                className={`stage-label acks-label ${orientation}`}
                data-stage="acks"
                style={style}
                aria-describedby={tipId}
                onFocus={() => setFocusTip(stageTip('acks', 'acks'))}
                onBlur={() => setFocusTip('')}
              >
                {stageNames.acks}
              </button>
            );
          })()}
        </div>
      </div>
      <div id={tipId} role="tooltip" className={`tooltip ${focusTip ? 'shown' : ''}`}>
        {focusTip}
      </div>
      {tip && (
        <div
          className="tooltip shown pointer"
          style={{ left: Math.min(tip.x + 12, size.w - 260), top: tip.y + 14 }}
          aria-hidden="true"
        >
          {tip.text}
        </div>
      )}
      {ctx && lanesTotal > ctx.lanes.length && (
        <p className="note">{msg.pipeline.lanesMore(ctx.lanes.length, lanesTotal)}</p>
      )}
    </div>
  );
}

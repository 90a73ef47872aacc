// The right half of a lesson step: the step's run. This first version names the run the step
// sets up (scenario, variant, overrides, time range); the pipeline, the player and the A/B
// table join it once the simulator's components are on main (issue 5).

import type { Lesson, LessonStep } from '../model/lesson';
import { useText } from './useLang';

export function StepStage({
  lesson,
  step,
}: {
  lesson: Lesson;
  step: LessonStep;
  playing: boolean;
  setPlaying: (p: boolean) => void;
}) {
  const t = useText();
  return (
    <section className="step-stage" aria-label={t.lesson.config} data-testid="step-stage">
      <p>
        <code>scenarios/{lesson.scenario}.toml</code>
      </p>
      {step.fromUs !== null && step.toUs !== null && (
        <p>
          {t.lesson.range}: {step.fromUs} – {step.toUs} µs
        </p>
      )}
    </section>
  );
}

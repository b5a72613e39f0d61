// The run's live progress while it is queued or running: the repetition, phase and time left, and a progress bar.

import {h, fill} from '../dom.js';
import * as fmt from '../format.js';
import {isFinished} from '../view.js';

function progressText(p, status) {
  if (status === 'queued' || !p) return 'Queued: it starts when the runs ahead of it have finished.';
  const rep = p.repetition > 0 ? `Repetition ${p.repetition} of ${p.repetitions}` : `Starting (${p.repetitions} `
    + `repetition${p.repetitions === 1 ? '' : 's'})`;
  return `${rep} · ${p.phase} · ${fmt.seconds(p.elapsedSeconds)} elapsed · about ${fmt.seconds(p.remainingSeconds)} `
    + 'left';
}

export function renderProgress(box, r) {
  if (isFinished(r.status)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const p = r.progress;
  const total = p ? p.elapsedSeconds + p.remainingSeconds : 0;
  fill(box,
    h('h2', {}, 'Progress'),
    h('p', {id: 'run-progress-text'}, progressText(p, r.status)),
    h('progress', {max: '1', value: String(total > 0 ? Math.min(1, p.elapsedSeconds / total) : 0),
      'aria-label': 'Share of the estimated time elapsed'}));
}

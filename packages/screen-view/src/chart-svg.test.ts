import { describe, expect, it } from 'vitest';
import { axisOf, drawChart, niceStep, shortLabel, shownLabels } from './chart-svg.js';

describe('charts as inline SVG', () => {
  it('picks nice axis steps and bounds; given bounds win', () => {
    expect(niceStep(10)).toBe(2.5);
    expect(niceStep(100)).toBe(25);
    expect(axisOf({ type: 'bar', labels: [], series: [] }, [3, 5, 2])).toMatchObject({
      lo: 0,
      hi: 6,
      ticks: [0, 2, 4, 6],
    });
    expect([shortLabel('2026-11-18'), shortLabel('2026-11-18T09:30'), shortLabel('Wednesday!!')]).toEqual([
      'Nov 18',
      '09:30',
      'Wednesday…',
    ]);
    expect(axisOf({ type: 'line', labels: [], series: [], min: 60, max: 80 }, [72])).toMatchObject({
      lo: 60,
      hi: 80,
    });
  });

  it('draws each type with palette colours and a full text description', () => {
    const spec = {
      labels: ['Mon', 'Tue', 'Wed'],
      series: [{ name: 'Km', values: [3, 5, null] }],
      unit: 'km',
    };
    const bar = drawChart(document, { ...spec, type: 'bar' });
    expect(bar.querySelectorAll('rect.svc-chart-bar')).toHaveLength(2);
    expect(bar.querySelector('rect')!.getAttribute('style')).toContain('var(--svc-chart-1)');
    expect(bar.querySelector('svg')!.getAttribute('aria-label')).toBe(
      'bar chart: Mon 3 km, Tue 5 km, Wed none km',
    );
    expect(
      drawChart(document, { ...spec, type: 'line' }).querySelectorAll('path.svc-chart-line'),
    ).toHaveLength(1);
    expect(
      drawChart(document, { ...spec, type: 'area' }).querySelectorAll('path.svc-chart-area'),
    ).toHaveLength(1);
    expect(drawChart(document, { ...spec, type: 'scatter' }).querySelectorAll('circle')).toHaveLength(2);
    const pie = drawChart(document, { ...spec, type: 'pie' });
    expect(pie.querySelectorAll('path.svc-chart-slice')).toHaveLength(2);
    expect(pie.querySelectorAll('.svc-chart-legend li')).toHaveLength(3);
    expect(drawChart(document, { ...spec, type: 'donut' }).querySelector('.svc-chart-hole')).not.toBeNull();
  });

  it('names the y axis with the unit at its top, above the highest tick, not under the x axis', () => {
    const chart = drawChart(document, {
      type: 'line',
      labels: ['Mon', 'Tue', 'Wed'],
      series: [{ name: 'Kg', values: [72, 71.5, 71] }],
      unit: 'kg',
    });
    const unit = chart.querySelector('svg text.svc-chart-unit')!;
    expect(unit.textContent).toBe('kg');
    const yOf = (el: Element) => Number(el.getAttribute('y'));
    const ticks = [...chart.querySelectorAll('svg text.svc-chart-tick:not(.svc-chart-unit)')];
    const yTicks = ticks.filter((t) => t.getAttribute('text-anchor') === 'end');
    expect(Math.min(...yTicks.map(yOf))).toBeGreaterThan(yOf(unit) + 8);
    // Nothing below the figure's plot repeats it.
    expect(chart.querySelector(':scope > p')).toBeNull();
    // Several series: the legend names them, and the axis still carries the unit.
    const two = drawChart(document, {
      type: 'bar',
      labels: ['a'],
      series: [
        { name: 'x', values: [1] },
        { name: 'y', values: [2] },
      ],
      unit: 'km',
    });
    expect(two.querySelector('svg text.svc-chart-unit')?.textContent).toBe('km');
  });

  it('stacks series and shows a legend for several', () => {
    const chart = drawChart(document, {
      type: 'bar',
      stack: true,
      labels: ['a', 'b'],
      series: [
        { name: 'x', values: [1, 2] },
        { name: 'y', values: [3, 4] },
      ],
    });
    expect(chart.querySelectorAll('rect')).toHaveLength(4);
    expect([...chart.querySelectorAll('.svc-chart-legend li')].map((li) => li.textContent)).toEqual([
      'x',
      'y',
    ]);
  });

  it('shows as many x labels as fit at 12 px, at most six, and the last when it has room', () => {
    const week = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    expect(shownLabels(week, 400, true).filter(Boolean)).toHaveLength(4);
    expect(shownLabels(week.slice(0, 3), 270, true)).toEqual([true, true, true]);
    const month = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
    const wide = shownLabels(month, 600);
    const narrow = shownLabels(month, 200);
    expect(wide.filter(Boolean).length).toBeLessThanOrEqual(7);
    expect(narrow.filter(Boolean).length).toBeLessThan(wide.filter(Boolean).length);
    expect(narrow[0]).toBe(true);
  });
});

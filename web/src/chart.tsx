/**
 * The page's charts: Chart.js 4 drawing on a canvas, with only the parts the Reportes screen
 * uses registered (Vite leaves the rest out of the bundle), and the heat map of
 * chartjs-chart-matrix. Chart.js evaluates no code and injects no stylesheet: it sizes its
 * canvas through the element's style properties, which the Content-Security-Policy allows
 * (docs/web.md, "Reportes").
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { useEffect, useRef } from 'preact/hooks';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
  MatrixController,
  MatrixElement,
);

// the page's type and colours (styles.css); no animation: a back office reads figures, and a
// chart drawn at once is the same on every screenshot
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
Chart.defaults.font.size = 12;
Chart.defaults.color = '#5c6470';
Chart.defaults.borderColor = '#e7e4de';
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;
Chart.defaults.locale = 'es-PE';

/** The page's palette for series: its green, then a warm orange, then blue and grey. */
export const COLORES = {
  verde: '#0b6e4f',
  verdeClaro: 'rgba(11, 110, 79, 0.15)',
  naranja: '#c2560c',
  azul: '#1f5fa8',
  gris: '#8a9099',
} as const;

/**
 * A canvas drawn by Chart.js from `config`; a new config draws a new chart, and leaving the
 * screen destroys it (its listeners and its resize observer with it). `label` is the canvas's
 * accessible name; the figure's table beside it holds the same figures as text.
 */
export function ChartCanvas<T extends ChartType>({
  config,
  label,
  height,
}: {
  config: ChartConfiguration<T>;
  label: string;
  /** The drawing's height in px (the width follows its card). */
  height: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!canvas.current) return undefined;
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);

  // the box's height is set as a style property (CSSOM), which the CSP allows, not an attribute
  useEffect(() => {
    box.current?.style.setProperty('height', `${height}px`);
  }, [height]);

  return (
    <div class="chart-box" ref={box}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}

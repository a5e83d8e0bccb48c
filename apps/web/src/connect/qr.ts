// The approval link as a QR code: uqr encodes it, the modules become one SVG path (dark on white, 4-module margin).
import { encode } from 'uqr';

const SVG = 'http://www.w3.org/2000/svg';

/** An `<svg role="img">` of `text`; always dark on white so phone cameras read it in dark mode too. */
export function qrSvg(text: string, label: string): SVGSVGElement {
  // M keeps the code readable off a glossy screen; the link is short, so the code stays small.
  const { size, data } = encode(text, { ecc: 'M', border: 4 });
  let d = '';
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (data[y]![x]) d += `M${x} ${y}h1v1h-1z`;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const back = document.createElementNS(SVG, 'rect');
  back.setAttribute('width', String(size));
  back.setAttribute('height', String(size));
  back.setAttribute('fill', '#ffffff');
  const modules = document.createElementNS(SVG, 'path');
  modules.setAttribute('d', d);
  modules.setAttribute('fill', '#000000');
  svg.append(back, modules);
  return svg;
}

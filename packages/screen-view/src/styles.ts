// The renderer's stylesheet: every colour, radius, font and duration comes from the palette's --svc-* variables.

/**
 * CSS for screens drawn by `renderScreen`; put it in a `<style>` once per page (with `lookCss` for the colours).
 *
 * @example
 * ```ts
 * document.head.append(Object.assign(document.createElement('style'), { textContent: SCREEN_VIEW_CSS }));
 * ```
 */
export const SCREEN_VIEW_CSS = `
.svc-root{color-scheme:light;background:var(--svc-bg);color:var(--svc-text);font-family:var(--svc-font);font-weight:var(--svc-weight);line-height:1.45;-webkit-text-size-adjust:100%}
.svc-root[data-scheme="dark"]{color-scheme:dark}
@media (prefers-color-scheme:dark){.svc-root:not([data-scheme="light"]){color-scheme:dark}}
.svc-screen{display:flex;flex-direction:column;gap:12px;background:var(--svc-surface);border-radius:var(--svc-radius-card);box-shadow:var(--svc-shadow);padding:16px;max-width:560px;box-sizing:border-box;animation:svc-enter var(--svc-duration-slow) var(--svc-ease-emphasis) both}
@keyframes svc-enter{from{opacity:var(--svc-enter-opacity);transform:var(--svc-enter-transform)}}
.svc-screen *,.svc-screen *::before{box-sizing:border-box}
.svc-c{margin:0;min-width:0}
.svc-c p,.svc-md p{margin:0}
.svc-md{display:flex;flex-direction:column;gap:6px}
.svc-md ul{margin:0;padding-left:20px}
.svc-md-h1{font-size:1.35em;font-weight:var(--svc-weight-strong)}
.svc-md-h2,.svc-md-h3{font-size:1.12em;font-weight:var(--svc-weight-strong)}
.svc-md code,.svc-screen code{font-family:var(--svc-font-mono);background:var(--svc-surface-alt);padding:0 4px;border-radius:4px;font-size:.92em}
.svc-screen a{color:var(--svc-accent-text)}
.svc-q,.svc-group-title{font-weight:var(--svc-weight-strong);margin:0 0 8px}
.svc-muted,.svc-hint{color:var(--svc-text-muted);font-size:.9em}
.svc-note{color:var(--svc-text-muted);font-style:italic}
.svc-error{color:var(--svc-bad)}
.svc-options{display:flex;flex-wrap:wrap;gap:8px}
.svc-stack{flex-direction:column;align-items:stretch}
.svc-btn{font:inherit;font-weight:var(--svc-weight-strong);min-height:44px;min-width:44px;padding:10px 16px;border-radius:var(--svc-radius);border:1.5px solid var(--svc-border);background:var(--svc-surface);color:var(--svc-text);cursor:pointer;transition:background var(--svc-duration-fast) var(--svc-ease),border-color var(--svc-duration-fast) var(--svc-ease),transform var(--svc-duration-fast) var(--svc-ease);display:inline-flex;align-items:center;justify-content:center;gap:6px;text-align:center}
.svc-btn:hover:not(:disabled){background:var(--svc-accent-soft)}
.svc-btn:active:not(:disabled){transform:scale(.98)}
.svc-btn.svc-primary{background:var(--svc-accent);border-color:var(--svc-accent);color:var(--svc-on-accent)}
.svc-btn.svc-primary:hover:not(:disabled){background:var(--svc-accent);filter:brightness(1.06)}
.svc-btn[aria-pressed="true"],.svc-btn.svc-picked{background:var(--svc-accent-soft);border-color:var(--svc-accent);color:var(--svc-text)}
.svc-btn.svc-primary.svc-picked{background:var(--svc-accent);color:var(--svc-on-accent)}
.svc-btn[aria-pressed="true"]::before,.svc-btn.svc-picked::before{content:"✓"}
.svc-btn.svc-picked:not([aria-pressed])::before{content:"✓"/"picked:"}
.svc-scale-rating .svc-step.svc-picked::before{content:none}
.svc-btn:disabled{cursor:default;opacity:.55}
.svc-btn.svc-picked:disabled{opacity:1}
.svc-send{margin-top:8px;align-self:flex-start}
.svc-option{flex:1 1 auto}
.svc-screen :focus-visible,.svc-file:focus-visible+.svc-pick{outline:3px solid var(--svc-focus);outline-offset:2px}
.svc-scale{gap:6px}
.svc-scale .svc-step{flex:1 0 44px;padding:8px 0}
.svc-face{width:28px;height:28px;fill:none;stroke:currentColor;stroke-width:1.6;stroke-linecap:round}
.svc-face .svc-eye{fill:currentColor;stroke:none}
.svc-scale-rating .svc-step{font-size:1.5em;color:var(--svc-text-muted);border-color:transparent;background:transparent}
.svc-scale-rating .svc-step.svc-lit,.svc-scale-rating .svc-step.svc-picked{color:var(--svc-accent-text);background:transparent;border-color:transparent}
.svc-checklist{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:2px}
.svc-checklist label,.svc-check{display:flex;align-items:center;gap:10px;min-height:44px;padding:4px 6px;border-radius:var(--svc-radius);cursor:pointer}
.svc-checklist label:hover{background:var(--svc-surface-alt)}
.svc-screen input[type=checkbox]{width:22px;height:22px;accent-color:var(--svc-accent);margin:0;flex:none}
.svc-checklist input:checked+span{text-decoration:line-through;color:var(--svc-text-muted)}
.svc-form{display:flex;flex-direction:column;gap:10px}
.svc-field{display:flex;flex-direction:column;gap:4px}
.svc-field label{font-size:.92em;color:var(--svc-text-muted)}
.svc-field-row{display:flex;gap:8px;align-items:flex-start}
.svc-field-row .svc-input{flex:1}
.svc-field-row .svc-send{margin-top:0}
.svc-input{font:inherit;color:var(--svc-text);background:var(--svc-surface-alt);border:1.5px solid var(--svc-border);border-radius:var(--svc-radius);padding:10px 12px;min-height:44px;width:100%}
.svc-input::placeholder,.svc-screen ::placeholder{color:var(--svc-placeholder);opacity:1}
.svc-input[aria-invalid="true"]{border-color:var(--svc-bad)}
.svc-field-error{margin:4px 0 0;font-size:.92em}
.svc-field-error[hidden]{display:none}
.svc-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.svc-file{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden}
.svc-pick{align-self:flex-start}
.svc-photo{display:flex;flex-direction:column;gap:8px;position:relative}
.svc-previews{display:flex;gap:6px;flex-wrap:wrap}
.svc-thumb{width:64px;height:64px;object-fit:cover;border-radius:var(--svc-radius)}
.svc-figure{margin:0}
.svc-figure img,.svc-placeholder{display:block;width:100%;border-radius:var(--svc-radius);max-height:60vh;object-fit:cover}
.svc-placeholder{aspect-ratio:4/3;display:grid;place-content:center;gap:6px;padding:16px;background:var(--svc-accent-soft);color:var(--svc-text-muted);text-align:center}
.svc-placeholder-note{font-size:.75em;text-transform:uppercase;letter-spacing:.06em}
.svc-figure figcaption{color:var(--svc-text-muted);font-size:.9em;margin-top:6px}
.svc-gallery{list-style:none;margin:0;padding:0;display:flex;gap:8px}
.svc-gallery img{display:block;border-radius:var(--svc-radius);object-fit:cover;width:100%;height:100%}
.svc-gallery-row,.svc-gallery-row3d{overflow-x:auto;scroll-snap-type:x mandatory}
.svc-gallery-row li,.svc-gallery-row3d li{flex:0 0 70%;aspect-ratio:4/3;scroll-snap-align:center}
.svc-gallery-row3d{perspective:600px}
.svc-gallery-row3d li{transform:rotateY(-8deg)}
.svc-gallery-feed{flex-direction:column}
.svc-gallery-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr))}
.svc-gallery-grid li{aspect-ratio:1}
.svc-link{font-weight:var(--svc-weight-strong);display:inline-flex;min-height:44px;align-items:center}
.svc-screen hr{border:0;border-top:1px solid var(--svc-divider);margin:4px 0}
.svc-stat-box{display:flex;flex-direction:column;gap:2px}
.svc-stat-label{color:var(--svc-text-muted);font-size:.92em}
.svc-stat-value{font-size:2.2em;font-weight:var(--svc-weight-strong);line-height:1.1;font-variant-numeric:tabular-nums}
.svc-unit{font-size:.5em;color:var(--svc-text-muted);font-weight:var(--svc-weight)}
.svc-stat-change{font-weight:var(--svc-weight-strong);color:var(--svc-text-muted)}
.svc-verdict{font-weight:var(--svc-weight)}
.svc-good{color:var(--svc-good)}
.svc-bad{color:var(--svc-bad)}
.svc-spark{width:120px;height:28px}
.svc-spark path{fill:none;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.svc-progress-head{display:flex;justify-content:space-between;gap:8px;margin-bottom:6px}
.svc-bar{height:10px;border-radius:999px;background:var(--svc-track);border:1px solid var(--svc-border);overflow:hidden}
.svc-bar-fill{height:100%;background:var(--svc-accent);border-radius:inherit;transition:width var(--svc-duration) var(--svc-ease)}
.svc-math math{font-family:"STIX Two Math","Cambria Math","Latin Modern Math","DejaVu Serif",serif;font-size:1.25em;overflow-x:auto;overflow-y:hidden;padding:4px 0}
.svc-chart-box{margin:0;max-width:520px}
.svc-chart-box figcaption{font-weight:var(--svc-weight-strong);margin-bottom:6px}
.svc-chart-svg{display:block;width:100%;height:auto;overflow:visible}
.svc-chart-grid{stroke:var(--svc-divider);stroke-width:1}
.svc-chart-tick{fill:var(--svc-text-muted);font-size:calc(12px * var(--svc-chart-unit, 1));font-family:var(--svc-font)}
.svc-chart-line{fill:none !important;stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
.svc-chart-area{opacity:.22}
.svc-chart-dot{stroke:var(--svc-surface) !important;stroke-width:1.5}
.svc-chart-slice{stroke:var(--svc-surface);stroke-width:2}
.svc-chart-hole{fill:var(--svc-surface)}
.svc-chart-empty{fill:var(--svc-surface-alt)}
.svc-chart-legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px;padding:0;margin:8px 0 0;font-size:.88em;color:var(--svc-text-muted)}
.svc-chart-legend li{display:flex;align-items:center;gap:6px}
.svc-swatch{width:10px;height:10px;border-radius:3px;display:inline-block}
.svc-chart-unit{font-weight:var(--svc-weight-strong)}
.svc-table-wrap{overflow-x:auto;border-radius:var(--svc-radius);border:1px solid var(--svc-divider)}
.svc-table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
.svc-table caption{text-align:left;font-weight:var(--svc-weight-strong);padding:8px 10px}
.svc-table th,.svc-table td{padding:8px 10px;text-align:left;border-bottom:1px solid var(--svc-divider)}
.svc-table thead th{padding:0 10px;vertical-align:bottom}
.svc-table tbody tr:nth-child(even){background:var(--svc-surface-alt)}
.svc-table .svc-num{text-align:right}
.svc-th{font:inherit;font-weight:var(--svc-weight-strong);background:none;border:0;color:var(--svc-text);padding:0;cursor:pointer;min-height:44px;min-width:44px;width:100%;text-align:inherit}
.svc-table th[aria-sort=ascending] .svc-th::after{content:" ▲";font-size:.7em}
.svc-table th[aria-sort=descending] .svc-th::after{content:" ▼";font-size:.7em}
.svc-unit-head{display:block;font-size:.78em;color:var(--svc-text-muted);font-weight:var(--svc-weight);margin:-8px 0 6px}
.svc-list{margin:0;padding-left:20px}
.svc-list.svc-checklist{padding-left:0}
.svc-send-card{display:flex;flex-direction:column;gap:4px;padding:12px;border:1.5px dashed var(--svc-border);border-radius:var(--svc-radius)}
.svc-pill{font:inherit;display:inline-flex;align-items:center;gap:8px;min-height:44px;padding:8px 16px;border-radius:999px;border:1.5px solid var(--svc-accent);background:var(--svc-accent-soft);color:var(--svc-text);font-weight:var(--svc-weight-strong);cursor:pointer;position:relative;isolation:isolate}
.svc-pill::after{content:"";position:absolute;inset:-1.5px;border-radius:inherit;z-index:-1;pointer-events:none;animation:svc-pulse var(--svc-pulse-duration) var(--svc-ease) infinite}
@keyframes svc-pulse{50%{transform:scale(var(--svc-pulse-scale));box-shadow:0 0 0 var(--svc-pulse-ring) var(--svc-accent-soft)}}
.svc-pill-icon{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
.svc-staged-body{display:flex;flex-direction:column;gap:8px;align-items:flex-start}
.svc-staged-body[hidden],.svc-pill[hidden]{display:none}
.svc-clock{font-size:2.4em;font-weight:var(--svc-weight-strong);font-variant-numeric:tabular-nums;line-height:1.1}
.svc-timer[data-state=done] .svc-clock{color:var(--svc-accent-text)}
.svc-card-face{font-size:1.25em;font-weight:var(--svc-weight-strong);min-height:3em;display:flex;align-items:center;padding:16px;background:var(--svc-surface-alt);border-radius:var(--svc-radius-card);width:100%}
.svc-echo{margin:8px 0 0;color:var(--svc-accent-text);font-weight:var(--svc-weight-strong)}
.svc-group{display:flex;flex-direction:column;gap:12px}
.svc-group-row{flex-direction:row;flex-wrap:wrap}
.svc-group-row>.svc-c{flex:1 1 160px}
.svc-group-card{padding:12px;border:1px solid var(--svc-divider);border-radius:var(--svc-radius-card);background:var(--svc-surface-alt)}
@media (prefers-reduced-motion:reduce){.svc-screen,.svc-pill::after{animation:none}.svc-btn,.svc-bar-fill{transition:none}}
`;

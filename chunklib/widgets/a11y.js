// chunklib's widget accessibility script, sent by chunklib.widgets.explorer.send_widget_a11y.
// Copies every slider's visible label onto its handle (role=slider) as aria-label, the tooltip
// as aria-description, and lets keys on widget controls reach them instead of JupyterLab's
// notebook shortcuts; watches the page, because widget views render after this runs.
(() => {
  if (window.chunklibWidgetA11y) { return; }
  window.chunklibWidgetA11y = true;
  const KEYED = 'select, input, textarea, button, [role="slider"], [contenteditable="true"]';
  const label = (box) => {
    const tag = box.querySelector(':scope > .widget-label');
    const name = tag ? tag.textContent.trim() : '';
    if (!name) { return; }
    const tip = tag.title && tag.title !== 'null' && tag.title !== name ? tag.title : '';
    box.querySelectorAll('[role="slider"]').forEach((handle) => {
      if (handle.getAttribute('aria-label') !== name) { handle.setAttribute('aria-label', name); }
      if (tip) { handle.setAttribute('aria-description', tip); }
    });
    const readout = box.querySelector(':scope > .widget-readout');
    if (readout) { readout.setAttribute('aria-label', name + ' (type a value)'); }
  };
  const keyed = (el) => el.setAttribute('data-lm-suppress-shortcuts', 'true');
  const scan = (node) => {
    const el = node.nodeType === 1 ? node : node.parentElement;
    if (!el || !el.closest('.jupyter-widgets, .widget-subarea')) {
      if (el) { el.querySelectorAll('.jupyter-widgets').forEach(scan); }
      return;
    }
    const own = el.closest('.widget-slider');
    if (own) { label(own); }
    el.querySelectorAll('.widget-slider').forEach(label);
    if (el.matches(KEYED)) { keyed(el); }
    el.querySelectorAll(KEYED).forEach(keyed);
  };
  scan(document.body);
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(scan)))
    .observe(document.body, {childList: true, subtree: true});
})();

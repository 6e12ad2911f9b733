// A panel that takes dropped files: it shows it is a target while something is dragged over it
// (the class "dragging") and hands the drop's DataTransfer to `onDrop`; and the panel's look. The
// panels of "Your model…" and "Your checkpoint…" use it.

export function dropZone(panel, onDrop) {
  for (const type of ['dragenter', 'dragover']) {
    panel.addEventListener(type, (event) => {
      event.preventDefault();
      panel.classList.add('dragging');
    });
  }
  panel.addEventListener('dragleave', () => panel.classList.remove('dragging'));
  panel.addEventListener('drop', (event) => {
    event.preventDefault();
    panel.classList.remove('dragging');
    onDrop(event.dataTransfer);
  });
  return panel;
}

/** The look of a drop panel (`selector`: its class): a dashed box, solid while a drag is over it. */
export function dropPanelCss(selector) {
  return `
${selector} { margin: 0.25rem 0 0.5rem; padding: 0.6rem 0.75rem; border: 1px dashed var(--_rule); border-radius: calc(var(--_radius) / 2); }
${selector}.dragging { border-color: var(--_accent); border-style: solid; }
${selector} p { margin: 0 0 0.4rem; }
${selector} .row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
${selector} input[type="file"] { max-width: 100%; }
`;
}

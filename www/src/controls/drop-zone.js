// A panel that takes dropped files: it shows it is a target while something is dragged over it
// (the class "dragging") and hands the drop's DataTransfer to `onDrop`. The panels of "Your model…"
// and "Your checkpoint…" use it.

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

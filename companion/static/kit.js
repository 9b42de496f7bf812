// The table kit's pages (companion/web/kit.py): the Print button opens the browser's own print
// dialog, where "Save as PDF" makes the PDF. Nothing else runs on these pages.
for (const button of document.querySelectorAll('[data-print]')) button.addEventListener('click', () => window.print());

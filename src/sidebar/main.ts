document.getElementById('app')!.textContent = 'Table App Sync';

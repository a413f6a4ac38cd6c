package langid

// Common words per language, written from general knowledge, not the test
// sets; names and loanwords ("OK", "Taxi") are left out as they tell nothing.
const (
	englishWords = `the be to of and a an in that have i it for not on with he as you do at
this but his by from they we say her she or will my one all would there their what so up
out if about who get which go me when make can like time no just him know take people into
year your good some could them see other than then now look only come its over think also
back after use two how our work first well way even new want because any these give day most
us is are was were am been has had does did very please thank thanks yes hello hi bye
goodbye sorry where why here today tomorrow yesterday morning evening night much many more
too let tell said going doing should shall may might must nice great really right help
something nothing everything everyone everybody anything someone nobody always never again
still why yours mine myself yourself our ours let's love feel fine how old name`

	frenchWords = `le la les de des du un une et est en que qui il elle je tu nous vous ils
elles on ne pas plus se ce cette ces cet dans pour par sur avec au aux mais ou où donc car
son sa ses mon ma mes ton ta tes votre vos notre nos leur leurs me te moi toi lui eux y suis
es sommes êtes sont été être avoir ai as a avons avez ont fait faire fais va vais vas allez
aller allons peut peux pouvez pouvons veux veut voulez voudrais comme bien très aussi tout
tous toute toutes rien quoi quel quelle quels quelles comment pourquoi quand combien oui non
merci bonjour bonsoir salut revoir pardon désolé désolée demain hier maintenant beaucoup peu
encore déjà ici là voici voilà avant après chez sans sous entre si alors plaît plait bonne
bon nuit jour monsieur madame mademoiselle aime heure heures temps ça cela celui celle
quelque chose personne jamais toujours aujourd'hui d'accord bienvenue enchanté enchantée`

	germanWords = `der die das den dem des ein eine einen einem einer eines und ist sind bin
bist war waren sein seine hat habe haben hast hatte hätte nicht kein keine keinen ich du er
sie es wir ihr mich mir dich dir ihn ihm uns euch ihnen ihre ihr mein meine meinen dein
deine unser unsere zu zum zur mit von vom auf für aus bei beim nach über unter vor im ins am
um an auch noch schon nur sehr so wie was wer wo wann warum wieso welche welcher welches
wenn dass weil aber oder denn doch ja nein danke bitte hallo tschüss guten gute gut morgen
tag abend nacht heute gestern jetzt hier da dort kann können könnten muss müssen will wollen
möchte möchten soll sollte werden wird wurde geht gehen machen mache macht gibt viel viele
alles etwas nichts mal immer gern gerne entschuldigung wiedersehen herr frau sich man also
einmal vielleicht natürlich willkommen freut hi hey`
)

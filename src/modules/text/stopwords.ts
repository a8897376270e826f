/**
 * Small stop-word lists for the keyword fallback of the local engine (docs/insights.md): the
 * question languages of the spec other than English, whose answers wink's English model cannot
 * lemmatise. They hold function words, pronouns, auxiliaries and the filler words answers are full
 * of ("really", "think"), so that what is left is what people talk about. English has a list too,
 * for the filler words wink does not flag as stop words.
 */
const words = (text: string): Set<string> => new Set(text.trim().split(/\s+/));

export const STOP_WORDS: Record<string, Set<string>> = {
  en: words(`
    a an the and or but if then so as of at by for with about against between into through to from
    in on off over under up down out again further once here there when where why how all any both
    each few more most other some such no nor not only own same than too very can will just should
    would could might must shall may i me my we our you your he him his she her it its they them
    their what which who whom this that these those am is are was were be been being have has had
    do does did doing because while also really think feel felt seem seems looks look like pick
    picked chose choose chosen went go one thing things lot bit way much many something anything
    good nice great fine okay ok yes yeah honestly probably maybe actually pretty quite well`),
  es: words(`
    a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el ella
    ellas ellos en entre era eres es esa ese eso esta este esto estos estas estoy fue fueron ha han
    hay he la las le les lo los más me mi mis mucho muy nada ni no nos o os otra otro para pero poco
    por porque que qué quien se sea ser si sí sin sobre son su sus también tan te tengo tiene todo
    tu tus un una uno unos y ya yo creo elegí escogí elegido opción cosa bien bueno buena así
    solo sólo parece me gusta gusta realmente verdad sinceramente pienso`),
  pt: words(`
    a ao aos as até com como da das de dela dele do dos e é ela ele eles em entre era essa esse
    esta este eu foi há isso isto já lhe mais mas me meu minha muito na nas nem no nos não o os ou
    para pela pelo por porque quando que quem se sem ser seu sua são também te tem tenho tu um uma
    você vocês acho escolhi escolha opção coisa bem bom boa assim só parece gosto realmente mesmo
    sinceramente pra pro`),
  fr: words(`
    a à au aux avec ce ces c cela cet cette d dans de des du elle elles en est et été être eu il
    ils j je l la le les leur lui m ma mais me même mes moi mon n ne nos notre nous on ou où par pas
    pour qu que qui s sa se ses si son sont sur ta te tes toi ton tu un une vos votre vous y ça ai
    as avons avez ont très plus trop bien bon bonne choisi choix option chose pense trouve vraiment
    juste aussi parce comme franchement peu`),
  de: words(`
    aber alle als also am an auch auf aus bei bin bis da das dass dem den der des die dies diese
    dieser du durch ein eine einem einen einer es für hat habe haben ich ihr im in ist ja kann kein
    keine mich mir mit nach nicht noch nur oder sehr sich sie sind so über um und uns von vor war
    was weil wenn wie wir wird zu zum zur gewählt wähle option sache finde denke wirklich einfach
    gut schon mal eigentlich ehrlich gesagt etwas viel mehr`),
  id: words(`
    ada adalah agar akan aku anda atau bagi bahwa banyak begitu belum bisa buat dan dari dengan di
    dia ini itu jadi juga kalau kami kamu karena ke kita lebih masih mau mereka pada saja saya
    sangat sekali semua sudah tapi tetapi tidak untuk yang ya pilih memilih pilihan rasa merasa
    pikir kayaknya sih deh kok nya cukup baik bagus jujur`),
  tl: words(`
    ako ang at ay ba dahil din rin hindi ito iyan iyon ka kami kasi kay ko kung lang lamang mga
    mo na naman nang ng ni nila nito niya pa para po sa sila siya tayo talaga yung yun may mas
    napili pinili pili sa tingin ko parang medyo ganun ganito oo opo maganda mabuti naman`),
  hi: words(`
    का की के को कि है हैं था थी थे और या में से पर भी ही तो यह वह ये वो मैं मुझे मेरा मेरी मेरे हम
    हमें आप तुम इस उस इसे उसे एक कुछ सब बहुत नहीं ना न जो जब तब क्योंकि लिए लिये साथ होता होती
    होते हो रहा रही रहे गया गई गए कर करना करता करती करते लगता लगती लगा चुना विकल्प अच्छा
    अच्छी सच ज़्यादा ज्यादा बस वाला वाली वाले`),
};

/** The stop words of a language (by its two-letter base); an empty set for one without a list. */
export function stopWordsOf(language: string): Set<string> {
  return STOP_WORDS[baseLanguage(language)] ?? new Set();
}

/** `pt-BR` → `pt`. */
export function baseLanguage(language: string): string {
  return language.slice(0, 2).toLowerCase();
}
